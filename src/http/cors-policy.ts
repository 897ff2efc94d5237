import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { z } from "zod";

/**
 * CORS from the deployment config's `http.cors` (langgraph.json keys). Without one, any origin
 * may call the API, as LangGraph's own servers allow, so browser chat UIs work out of the box;
 * API keys still apply. A key the config leaves out keeps its default (below); a key it sets
 * replaces that default.
 */
const CorsConfig = z.object({
  allow_origins: z.array(z.string()).optional(),
  allow_methods: z.array(z.string()).optional(),
  allow_headers: z.array(z.string()).optional(),
  allow_credentials: z.boolean().optional(),
  expose_headers: z.array(z.string()).optional(),
  max_age: z.number().int().nonnegative().optional(),
});

/** Every method a route of the API answers (REST, GraphQL, MCP, A2A, the console). */
export const DEFAULT_ALLOW_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * Response headers browser clients must read: the SDK reads Content-Location (a new run's id),
 * Location and X-Pagination-Next (`includePagination`); browser MCP clients read Mcp-Session-Id to
 * continue their session. Always exposed, with the config's `expose_headers` added.
 */
const ALWAYS_EXPOSED = ["Content-Location", "Location", "X-Pagination-Next", "Mcp-Session-Id"];

export function corsMiddleware(corsConfig: unknown): MiddlewareHandler {
  const parsed = CorsConfig.safeParse(corsConfig ?? {});
  if (!parsed.success) {
    throw new Error(`Invalid http.cors in the deployment config: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`);
  }
  const options = parsed.data;
  const allowedOrigins = options.allow_origins;
  const allowsAnyOrigin = allowedOrigins === undefined || allowedOrigins.includes("*");
  // Hono's own defaults apply only to keys that are absent: an `undefined` value replaces them
  // (that is how Access-Control-Allow-Methods once went missing), so only set keys are passed.
  // Without `allow_headers` Hono answers a preflight with the request headers it asks for, as
  // LangGraph's servers (allow_headers ["*"]) do. A fixed list could not do: the API reads
  // Authorization, X-Api-Key, Content-Type, Last-Event-ID, Prefer and Mcp-Session-Id, and runs copy
  // the deployment's `http.configurable_headers` (by default every `x-*` header) into their
  // config, a pattern no Access-Control-Allow-Headers value can express; the `*` wildcard does
  // not cover Authorization (Fetch standard, "CORS-non-wildcard request-header").
  const exposeHeaders = [...ALWAYS_EXPOSED, ...(options.expose_headers ?? [])];
  const honoCors = cors({
    origin: allowsAnyOrigin ? "*" : allowedOrigins,
    allowMethods: options.allow_methods ?? DEFAULT_ALLOW_METHODS,
    ...(options.allow_headers ? { allowHeaders: options.allow_headers } : {}),
    ...(options.allow_credentials !== undefined ? { credentials: options.allow_credentials } : {}),
    exposeHeaders,
    ...(options.max_age !== undefined ? { maxAge: options.max_age } : {}),
  });
  const responseHeaders = corsResponseHeaders(allowsAnyOrigin ? null : new Set(allowedOrigins), options.allow_credentials === true, exposeHeaders);
  if (allowsAnyOrigin) return async (c, next) => (c.req.method === "OPTIONS" ? honoCors(c, next) : responseHeaders(c, next));
  const allowed = new Set(allowedOrigins);
  return async (c, next) => {
    const origin = c.req.header("origin");
    // A preflight from an origin the config does not list gets no allow headers at all (Hono
    // would still send the methods and headers), so the browser sends nothing after it.
    if (c.req.method === "OPTIONS" && origin !== undefined && !allowed.has(origin)) {
      return c.json({ detail: `origin ${origin} is not allowed by this deployment's http.cors.allow_origins` }, 403, { Vary: "Origin" });
    }
    return c.req.method === "OPTIONS" ? honoCors(c, next) : responseHeaders(c, next);
  };
}

/**
 * The CORS headers of every answer but a preflight (which Hono's middleware answers), the same
 * ones Hono's `cors` sets, put on the response once it exists. Why not Hono's middleware here:
 * it sets them on `c.res` before the route runs, which makes Hono rebuild the route's response
 * as a native Response to copy them over, so every JSON answer left through a web stream (~3% of
 * the server's CPU in the CRUD bench, where the response path was 13%). Set afterwards they go
 * into the route's own response. `allowedOrigins` null: any origin ("*").
 */
function corsResponseHeaders(allowedOrigins: ReadonlySet<string> | null, credentials: boolean, exposed: string[]): MiddlewareHandler {
  const exposeHeaders = exposed.join(",");
  return async (c, next) => {
    await next();
    const origin = c.req.header("origin") ?? "";
    const allowOrigin = allowedOrigins === null ? "*" : allowedOrigins.has(origin) ? origin : null;
    let headers = c.res.headers;
    try {
      headers.set("Access-Control-Expose-Headers", exposeHeaders);
    } catch {
      // A response with immutable headers (a custom route answering with a fetch() response):
      // reassigning it makes Hono copy it into one whose headers can be set.
      c.res = new Response(c.res.body, c.res);
      headers = c.res.headers;
      headers.set("Access-Control-Expose-Headers", exposeHeaders);
    }
    if (allowOrigin !== null) headers.set("Access-Control-Allow-Origin", allowOrigin);
    if (credentials) headers.set("Access-Control-Allow-Credentials", "true");
    if (allowedOrigins !== null) headers.append("Vary", "Origin");
  };
}
