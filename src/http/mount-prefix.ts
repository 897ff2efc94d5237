import type { MiddlewareHandler } from "hono";
import { getPath } from "hono/utils/url";
import type { DeploymentConfig } from "../graphs/deployment-config.js";
import type { HttpEnv } from "./http-env.js";

/**
 * langgraph.json `http.mount_prefix` ("/api"): every route is served under it. Hangar's routes
 * stay written without it: the app routes on the path with the prefix taken off (Hono's
 * `getPath` option), so `/api/threads` reaches `/threads`, while the request's URL keeps the
 * prefix (GraphQL's endpoint and the links Hangar writes into answers add it back). "" when the
 * deployment sets none; validated when langgraph.json is read (graphs/deployment-config.ts).
 */
export function mountPrefixOf(deployment: DeploymentConfig): string {
  return deployment.http?.mount_prefix ?? "";
}

/** `/api/threads` → `/threads`, `/api` → `/`; null for a path outside the prefix. */
export function pathUnderPrefix(pathname: string, prefix: string): string | null {
  if (prefix === "") return pathname;
  if (pathname === prefix) return "/";
  return pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) : null;
}

/** The routing path of a request (Hono's `getPath` option): its path with the prefix taken off. */
export function routingPath(prefix: string): (request: Request) => string {
  return (request) => {
    const path = getPath(request);
    return pathUnderPrefix(path, prefix) ?? path;
  };
}

/** The first middleware: a request outside the prefix is answered 404 before anything runs for it. */
export function outsidePrefixAnswer(prefix: string): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const path = getPath(c.req.raw);
    if (pathUnderPrefix(path, prefix) !== null) return next();
    return c.json({ detail: `No route for ${c.req.method} ${path}: this server's routes are under ${prefix}` }, 404);
  };
}

/**
 * A URL or path named by an in-process caller (the SDK's loopback, a webhook given as a path of
 * this server), which knows nothing of the prefix: the prefix is added unless it is there already.
 */
export function withMountPrefix(urlOrPath: string, prefix: string): string {
  if (prefix === "") return urlOrPath;
  const isPath = urlOrPath.startsWith("/");
  const url = new URL(urlOrPath, "http://localhost");
  if (pathUnderPrefix(url.pathname, prefix) === null) url.pathname = `${prefix}${url.pathname}`;
  return isPath ? `${url.pathname}${url.search}` : url.toString();
}

/**
 * Content-Location and Location headers that name a path of this server (the SDK reads a new
 * run's ids from them) get the prefix, whoever answered: Hangar's routes or the deployment's.
 */
export function prefixedLocations(prefix: string): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    await next();
    for (const header of ["Content-Location", "Location"]) {
      const value = c.res.headers.get(header);
      if (value?.startsWith("/") && !value.startsWith("//") && pathUnderPrefix(value.split("?")[0] ?? value, prefix) === null) {
        c.header(header, `${prefix}${value}`);
      }
    }
  };
}
