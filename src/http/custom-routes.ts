import type { Hono } from "hono";
import type { DeploymentConfig } from "../graphs/deployment-config.js";
import { importDeploymentExport, type GraphModuleLoader } from "../graphs/graph-module-loader.js";
import type { HttpEnv } from "./http-env.js";

/**
 * langgraph.json `http.app`: the deployment's own Hono app ("./file.ts:app"), loaded like the
 * graphs (so it may use its own copy of hono). Mounted in front of Hangar's routes as LangGraph's
 * server does: its routes win, and its middleware runs for Hangar's routes too (it may answer
 * first, add headers, or rewrite a JSON body, which Hangar then reads as rewritten). Returns null
 * when the deployment has none; throws, stopping start-up, naming the file when it does not load
 * or is not a Hono app.
 */
export async function loadCustomRoutes(deployment: DeploymentConfig, loader: GraphModuleLoader): Promise<Hono<HttpEnv> | null> {
  const spec = deployment.http?.app;
  if (spec === undefined || spec === null) return null;
  if (typeof spec !== "string" || spec.length === 0) {
    throw new Error(`Invalid deployment config ${deployment.path}: http.app must be "./file.ts:export"`);
  }
  if (deployment.http?.middleware_order === "middleware_first" && isCustomRouteAuthEnabled(deployment)) {
    throw new Error(
      `Invalid deployment config ${deployment.path}: http.middleware_order "middleware_first" cannot hold with ` +
        `http.enable_custom_route_auth: authenticating the app's routes means authenticating before the app runs, ` +
        `middleware included (Hono cannot tell one from the other before running it). Use "auth_first", or drop enable_custom_route_auth`,
    );
  }
  const { exported, exportName, absolutePath } = await importDeploymentExport(loader, deployment.directory, "http.app", spec);
  // By shape: the module's hono may be another copy than Hangar's; `route()` only reads these.
  const candidate = exported as { routes?: unknown; fetch?: unknown } | null;
  if (typeof candidate !== "object" || candidate === null || !Array.isArray(candidate.routes) || typeof candidate.fetch !== "function") {
    throw new Error(`http.app "${spec}" (${absolutePath}): export "${exportName}" is not a Hono app`);
  }
  return exported as Hono<HttpEnv>;
}

/** `http.enable_custom_route_auth`: custom routes are authenticated like Hangar's (default: not). */
function isCustomRouteAuthEnabled(deployment: DeploymentConfig): boolean {
  return deployment.http?.enable_custom_route_auth === true;
}

/**
 * Whether authentication runs before the deployment's app: `http.middleware_order: "auth_first"`
 * (its middleware sees the authenticated user, and unauthenticated requests never reach it), or
 * `enable_custom_route_auth`. Both authenticate the app's own routes as well.
 * LangGraph's default, `middleware_first`, runs the app first.
 */
export function isAuthenticatedBeforeCustomApp(deployment: DeploymentConfig): boolean {
  return deployment.http?.middleware_order === "auth_first" || isCustomRouteAuthEnabled(deployment);
}
