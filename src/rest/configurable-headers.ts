import { z } from "zod";
import type { DeploymentConfig } from "../graphs/deployment-config.js";

/**
 * Request headers a run sees in `config.configurable`, as LangGraph's servers pass them: by
 * default every `x-*` header but credentials, and `user-agent`; langgraph.json
 * `http.configurable_headers` `{includes, excludes}` (names, `*` as a wildcard) changes which.
 * Graphs and custom-route middleware use them for per-request settings (tenant, feature flags).
 */
const HeaderPolicy = z.object({
  includes: z.array(z.string().min(1)).optional(),
  excludes: z.array(z.string().min(1)).optional(),
});

/** Never copied: they authenticate the caller, and runs' config is stored and shown. */
const NEVER_COPIED = new Set(["x-api-key", "x-tenant-id", "x-service-key", "authorization", "cookie"]);

export type ConfigurableHeaders = (headers: Headers) => Record<string, string>;

/** The deployment's header policy as a function of a request's headers; throws naming the key on a bad policy. */
export function configurableHeadersPolicy(deployment: DeploymentConfig): ConfigurableHeaders {
  const parsed = HeaderPolicy.safeParse(deployment.http?.configurable_headers ?? {});
  if (!parsed.success) {
    throw new Error(`Invalid deployment config ${deployment.path}: http.configurable_headers must be {includes?: string[], excludes?: string[]}`);
  }
  const includes = (parsed.data.includes ?? ["x-*", "user-agent"]).map(toPattern);
  const excludes = (parsed.data.excludes ?? []).map(toPattern);
  return (headers) => {
    const copied: Record<string, string> = {};
    headers.forEach((value, rawName) => {
      const name = rawName.toLowerCase();
      if (NEVER_COPIED.has(name)) return;
      if (includes.some((pattern) => pattern.test(name)) && !excludes.some((pattern) => pattern.test(name))) copied[name] = value;
    });
    return copied;
  };
}

function toPattern(glob: string): RegExp {
  const escaped = glob.toLowerCase().replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*");
  return new RegExp(`^${escaped}$`);
}
