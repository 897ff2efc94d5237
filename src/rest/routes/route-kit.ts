import type { Context } from "hono";
import type { z } from "zod";
import type { HttpEnv } from "../../http/http-env.js";
import { createServiceContext, type HangarRuntime } from "../../runtime.js";
import type { ServiceContext } from "../../services/service-context.js";
import { configurableHeadersPolicy } from "../configurable-headers.js";
import { parseInput, readJsonBody } from "../read-body.js";

/** What every REST handler needs from a request, bound to the running Hangar. */
export interface RouteKit {
  serviceContext(c: Context<HttpEnv>): ServiceContext;
  body<Schema extends z.ZodType>(c: Context<HttpEnv>, schema: Schema): Promise<z.infer<Schema>>;
  query<Schema extends z.ZodType>(c: Context<HttpEnv>, schema: Schema): z.infer<Schema>;
  /** The request headers a new run sees in `config.configurable` (http.configurable_headers). */
  runHeaders(c: Context<HttpEnv>): Record<string, string>;
}

export function createRouteKit(runtime: HangarRuntime): RouteKit {
  const configurableHeaders = configurableHeadersPolicy(runtime.deployment);
  return {
    runHeaders: (c) => configurableHeaders(c.req.raw.headers),
    serviceContext: (c) => createServiceContext(runtime, c.get("actor"), c.get("log")),
    body: (c, schema) => readJsonBody(c, schema, runtime.config.maxBodyBytes),
    query: (c, schema) => parseInput(schema, queryParameters(c), "query"),
  };
}

/** Each parameter once as a string, or as an array when it was repeated (`?a=x&a=y`). */
function queryParameters(c: Context<HttpEnv>): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(c.req.queries()).map(([name, values]) => [name, values.length === 1 ? values[0]! : values]),
  );
}

/**
 * Lists are fetched with limit + 1 rows: when the extra row exists, a further page does and its
 * offset goes in X-Pagination-Next (what the SDK's `includePagination` reads).
 */
export function takePage<Row>(c: Context, rows: Row[], page: { limit: number; offset: number }): Row[] {
  if (rows.length > page.limit) c.header("X-Pagination-Next", String(page.offset + page.limit));
  return rows.slice(0, page.limit);
}
