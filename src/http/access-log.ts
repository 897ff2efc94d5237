import { getPath } from "hono/utils/url";
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import type { DeploymentConfig } from "../graphs/deployment-config.js";
import type { Logger } from "../logger.js";
import type { HttpEnv } from "./http-env.js";

const HeaderPolicy = z.object({
  includes: z.array(z.string().min(1)).optional(),
  excludes: z.array(z.string().min(1)).optional(),
});

/** Credentials: never written to a log, whatever logging_headers says. */
const NEVER_LOGGED = new Set(["x-api-key", "authorization", "cookie", "set-cookie", "x-service-key", "proxy-authorization"]);

/**
 * One access log line per request (info, msg "request"): method, path, status, `ttfb_ms` (until
 * the response's headers: its first byte, for a stream), its trace id (W3C `traceparent`'s, else
 * `x-request-id`, else a new one; the request's other log lines carry it as requestId) and the request headers
 * langgraph.json `http.logging_headers` `{includes, excludes}` (names, `*` as a wildcard) names;
 * none by default, and never credentials. Throws naming the key on a bad policy.
 */
export function accessLog(deployment: DeploymentConfig, log: Logger): MiddlewareHandler<HttpEnv> {
  const parsed = HeaderPolicy.safeParse(deployment.http?.logging_headers ?? {});
  if (!parsed.success) {
    throw new Error(`Invalid deployment config ${deployment.path}: http.logging_headers must be {includes?: string[], excludes?: string[]}`);
  }
  const includes = (parsed.data.includes ?? []).map(toPattern);
  const excludes = (parsed.data.excludes ?? []).map(toPattern);
  const loggedHeaders = (headers: Headers): Record<string, string> | undefined => {
    if (includes.length === 0) return undefined;
    const picked: Record<string, string> = {};
    headers.forEach((value, rawName) => {
      const name = rawName.toLowerCase();
      if (NEVER_LOGGED.has(name)) return;
      if (includes.some((pattern) => pattern.test(name)) && !excludes.some((pattern) => pattern.test(name))) picked[name] = value;
    });
    return picked;
  };
  return async (c, next) => {
    const started = performance.now();
    const traceId = traceIdOf(c.req.header("traceparent")) ?? c.req.header("x-request-id") ?? randomUUID();
    c.set("requestId", traceId);
    await next();
    // Below info (LOG_LEVEL=warn) the line would be dropped: skip building it (a path parse and
    // a header walk per request).
    if (!log.isLevelEnabled("info")) return;
    log.info(
      {
        method: c.req.method,
        // As the client asked for it (with http.mount_prefix, c.req.path has the prefix taken off).
        path: getPath(c.req.raw),
        status: c.res.status,
        ttfb_ms: Math.round((performance.now() - started) * 10) / 10,
        trace_id: traceId,
        headers: loggedHeaders(c.req.raw.headers),
      },
      "request",
    );
  };
}

/** The trace id of a W3C traceparent (`00-<32 hex>-<16 hex>-<2 hex>`), or undefined. */
function traceIdOf(traceparent: string | undefined): string | undefined {
  return traceparent?.match(/^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/)?.[1];
}

function toPattern(glob: string): RegExp {
  const escaped = glob.toLowerCase().replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*");
  return new RegExp(`^${escaped}$`);
}
