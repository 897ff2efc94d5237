import type { DeploymentConfig } from "./deployment-config.js";

/**
 * What Hangar does with each key a langgraph.json may hold. Three kinds, so nothing is dropped
 * without a word:
 * - honoured: Hangar implements it;
 * - refused: it would change who may do what (or which routes exist) and Hangar does not
 *   implement it, so running anyway could leave open what the deployment meant to close: start-up
 *   stops naming the key;
 * - everything else is reported once at start as a warning (build settings such as
 *   `dockerfile_lines` mean nothing to a server that runs the graphs in place).
 */
const HONOURED_TOP_LEVEL = new Set(["graphs", "env", "auth", "http", "store", "checkpointer"]);
/** Build-time settings of langgraph-cli: meaningful for images, not for a running server. */
const BUILD_ONLY = new Set(["node_version", "dependencies", "dockerfile_lines", "image_distro", "python_version", "pip_config_file", "$schema"]);
const HONOURED_HTTP = new Set(["cors", "disable_assistants", "disable_threads", "disable_runs", "disable_store", "disable_meta"]);
/** http keys that add or open routes in ways Hangar does not implement yet. */
const REFUSED_HTTP: Record<string, string> = {
  app: "custom routes (http.app) are not mounted by Hangar yet",
  enable_custom_route_auth: "custom routes (http.app) are not mounted by Hangar yet",
};

export interface DeploymentKeyReview {
  /** Keys Hangar neither honours nor refuses, as `path: reason`, for one start-up warning. */
  ignored: string[];
}

/** Throws (stopping start-up) on a refused key; returns the ones merely ignored. */
export function reviewDeploymentKeys(config: DeploymentConfig): DeploymentKeyReview {
  const ignored: string[] = [];
  for (const key of Object.keys(config.extra)) {
    if (HONOURED_TOP_LEVEL.has(key)) continue;
    ignored.push(BUILD_ONLY.has(key) ? `${key} (a build setting of langgraph-cli)` : `${key} (not implemented by Hangar)`);
  }
  for (const [key, value] of Object.entries(config.http ?? {})) {
    if (HONOURED_HTTP.has(key)) continue;
    const refusal = REFUSED_HTTP[key];
    if (refusal !== undefined && value !== undefined && value !== null && value !== false) {
      throw new Error(`Invalid deployment config ${config.path}: http.${key}: ${refusal}; remove the key to start`);
    }
    ignored.push(`http.${key} (not implemented by Hangar)`);
  }
  return { ignored };
}
