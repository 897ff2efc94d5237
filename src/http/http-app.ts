import { randomUUID } from "node:crypto";
import { Hono, type MiddlewareHandler } from "hono";
import { authenticateCaller, type RequestAuthentication } from "../auth/authenticate-request.js";
import { PayloadTooLargeError } from "../domain/errors.js";
import type { HangarRuntime } from "../runtime.js";
import { mountRestApi } from "../rest/app.js";
import { mountMcp } from "../mcp/mcp-endpoint.js";
import { mountA2a } from "../a2a/a2a-endpoint.js";
import { respondWithError } from "../rest/errors.js";
import type { GraphqlServer } from "../graphql/yoga.js";
import { readBoundedBody } from "./bounded-body.js";
import { mountConsole } from "./console-static.js";
import { accessLog } from "./access-log.js";
import { corsMiddleware } from "./cors-policy.js";
import { isAuthenticatedBeforeCustomApp } from "./custom-routes.js";
import { mountUiAssets, mountUiComponents } from "./generative-ui.js";
import type { HttpEnv } from "./http-env.js";
import { mountPrefixOf, outsidePrefixAnswer, prefixedLocations, routingPath } from "./mount-prefix.js";
import { mountLiveness, mountMetrics, mountReadiness } from "./operations-routes.js";
import { serverInfo } from "./server-info.js";

/**
 * The HTTP surface, in this order: the access log; with `http.mount_prefix`, a 404 for paths
 * outside it (the routes below are matched with the prefix taken off: http/mount-prefix.ts);
 * CORS; the deployment's own routes and middleware (`http.app`); /ok, /ready, /info and the web
 * console's static files (always open: the console asks for the key or token itself);
 * authentication (API key, then the deployment's custom `authenticate`) and the body-size check
 * for everything else; GraphQL at /graphql, MCP at /mcp, A2A under /a2a and the
 * LangGraph-compatible REST API. /metrics is authenticated here (HANGAR_METRICS_PORT serves it
 * open on its own port instead: http/metrics-server.ts). `http.middleware_order: "auth_first"`
 * (or `enable_custom_route_auth`) moves authentication in front of the deployment's app.
 */
export function createHttpApp(
  runtime: HangarRuntime,
  graphql: GraphqlServer,
  /** Collects what must close before the HTTP server can (open MCP sessions hold SSE streams). */
  beforeServerClose: Array<() => Promise<void>> = [],
): Hono<HttpEnv> {
  const prefix = mountPrefixOf(runtime.deployment);
  const app = new Hono<HttpEnv>(prefix === "" ? {} : { getPath: routingPath(prefix) });
  const { apiKeys, maxBodyBytes } = runtime.config;
  const customRoutes = runtime.customRoutes ?? null;
  const authenticateCustomRoutes = customRoutes !== null && isAuthenticatedBeforeCustomApp(runtime.deployment);

  // The access log wraps everything, so its line has the status and time whoever answered.
  app.use("*", accessLog(runtime.deployment, runtime.log.child({ component: "http" })));
  if (prefix !== "") {
    app.use("*", outsidePrefixAnswer(prefix));
    app.use("*", prefixedLocations(prefix));
  }
  // CORS first, so preflights (which carry no API key) and error responses get its headers.
  app.use("*", corsMiddleware(runtime.deployment.http?.cors));
  const authentication = authenticationMiddleware(runtime, { apiKeys, customAuth: runtime.customAuth }, maxBodyBytes);
  // Custom routes and middleware (http.app) come before everything else, as on LangGraph's
  // server; with middleware_order "auth_first" or enable_custom_route_auth, authentication comes
  // before them (a Hono app's middleware cannot be told from its routes before it runs).
  if (authenticateCustomRoutes) app.use("*", authentication);
  if (customRoutes) app.route("/", customRoutes);

  if (runtime.deployment.http?.disable_meta !== true) {
    mountLiveness(app, runtime);
    // Open as on LangGraph's server: clients probe it before they hold credentials.
    app.get("/info", (c) => c.json(serverInfo(runtime)));
  }
  // Open like /ok: orchestrators' probes carry no credentials.
  mountReadiness(app, runtime);
  mountConsole(app, runtime.config.consoleDir, runtime.log, prefix);
  const ui = runtime.deployment.http?.disable_ui === true ? new Map() : (runtime.generativeUi ?? new Map());
  mountUiAssets(app, ui);
  if (!authenticateCustomRoutes) app.use("*", authentication);
  mountUiComponents(app, ui, { maxBodyBytes, mountPrefix: prefix }, runtime.log);
  // Authenticated like the API (HANGAR_API_KEYS or custom auth), unless on its own port.
  if (runtime.config.metricsPort === null) mountMetrics(app, runtime, "authenticated");

  app.on(["GET", "POST", "OPTIONS"], "/graphql", async (c) => {
    const request = c.req.method === "POST" ? await withBoundedBody(c.req.raw, maxBodyBytes) : c.req.raw;
    return graphql.fetch(request, { actor: c.get("actor"), log: c.get("log") });
  });

  // Agent protocols before the REST API, whose notFound handler answers everything unmatched.
  const mcp = mountMcp(app, runtime);
  if (mcp) beforeServerClose.push(() => mcp.close());
  mountA2a(app, runtime);
  mountRestApi(app, runtime);
  return app;
}

/** Paths anyone may call: health, server info and the console's static files (they hold no data). */
function isOpenPath(method: string, pathname: string): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  return (
    pathname === "/ok" ||
    pathname === "/ready" ||
    pathname === "/info" ||
    pathname === "/" ||
    pathname === "/console" ||
    pathname.startsWith("/console/") ||
    // Generative UI bundles (GET /ui/{name}/{file}); POST /ui/{name} is authenticated.
    /^\/ui\/[^/]+\/[^/]+$/.test(pathname)
  );
}

/**
 * Authentication (API key, then the deployment's custom `authenticate`) and the declared body
 * size, for every request but the open paths; sets the request's actor and logger.
 */
function authenticationMiddleware(runtime: HangarRuntime, settings: RequestAuthentication, maxBodyBytes: number): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    if (isOpenPath(c.req.method, c.req.path)) return next();
    const log = runtime.log.child({ requestId: c.get("requestId") ?? randomUUID() });
    c.set("log", log);
    const declaredLength = Number(c.req.header("content-length") ?? 0);
    if (declaredLength > maxBodyBytes) return respondWithError(c, new PayloadTooLargeError(maxBodyBytes), log);
    try {
      const actor = await authenticateCaller(settings, c.req.raw, log);
      c.set("actor", actor);
      // What LangGraph's JS server gives the deployment's middleware and routes (`c.get("auth")`).
      if (actor.user) c.set("auth", { user: actor.user, scopes: actor.user.permissions });
    } catch (error) {
      return respondWithError(c, error, log);
    }
    await next();
  };
}

/** Yoga reads the body itself, so a chunked upload is bounded here first (413 past the limit). */
async function withBoundedBody(request: Request, maxBytes: number): Promise<Request> {
  const body = await readBoundedBody(request, maxBytes);
  return new Request(request.url, { method: request.method, headers: request.headers, body: Buffer.from(body) });
}
