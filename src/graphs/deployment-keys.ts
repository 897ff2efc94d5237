import type { DeploymentConfig } from "./deployment-config.js";

/**
 * What Hangar does with each key a langgraph.json may hold, so nothing is dropped without a word:
 * honoured keys are implemented; everything else is named once at start in a warning (build
 * settings such as `dockerfile_lines` mean nothing to a server that runs the graphs in place).
 * Keys that decide who may do what are never merely ignored: an `auth` setting Hangar does not
 * implement stops start-up (auth/load-custom-auth.ts), and every http key that closes or opens
 * routes (`disable_*`, `app`, `enable_custom_route_auth`, `mcp`, `a2a`) is honoured.
 */
const HONOURED_TOP_LEVEL = new Set(["graphs", "env", "auth", "http", "store", "checkpointer", "ui", "ui_config", "webhooks", "encryption"]);
/**
 * Keys that change what is stored in clear: ignoring one would leave data readable that its
 * deployment meant to encrypt, so Hangar refuses to start instead. (`encryption` is honoured:
 * graphs/load-encryption.ts loads its handlers and says at start-up what stays in clear.)
 */
const REFUSED_TOP_LEVEL: Record<string, string> = {};
/** Build-time settings of langgraph-cli: meaningful for images, not for a running server. */
const BUILD_ONLY = new Set(["node_version", "dependencies", "dockerfile_lines", "image_distro", "python_version", "pip_config_file", "$schema"]);
const HONOURED_HTTP = new Set([
  "app",
  "enable_custom_route_auth",
  "configurable_headers",
  "cors",
  "disable_assistants",
  "disable_threads",
  "disable_runs",
  "disable_store",
  "disable_meta",
  // Agent protocols (src/mcp, src/a2a): off switches, and which assistants each offers.
  "disable_mcp",
  "disable_a2a",
  "disable_ui",
  "disable_webhooks",
  // One access log line per request (http/access-log.ts), with these request headers.
  "logging_headers",
  // Every route under a prefix (http/mount-prefix.ts); the deployment's app before or after authentication.
  "mount_prefix",
  "middleware_order",
  "mcp",
  "a2a",
]);

export interface DeploymentKeyReview {
  /** Keys Hangar neither honours nor refuses, as `path: reason`, for one start-up warning. */
  ignored: string[];
  /** Keys that stop start-up, with the reason. */
  refused: string[];
}

/** The keys Hangar ignores, for one start-up warning, and those it refuses to start with. */
export function reviewDeploymentKeys(config: DeploymentConfig): DeploymentKeyReview {
  const ignored: string[] = [];
  const refused: string[] = [];
  for (const key of Object.keys(config.extra)) {
    if (HONOURED_TOP_LEVEL.has(key)) continue;
    const refusal = REFUSED_TOP_LEVEL[key];
    if (refusal) {
      refused.push(refusal);
      continue;
    }
    ignored.push(BUILD_ONLY.has(key) ? `${key} (a build setting of langgraph-cli)` : `${key} (not implemented by Hangar)`);
  }
  for (const key of Object.keys(config.http ?? {})) {
    if (HONOURED_HTTP.has(key)) continue;
    ignored.push(`http.${key} (not implemented by Hangar)`);
  }
  return { ignored, refused };
}
