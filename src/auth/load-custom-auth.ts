import { z } from "zod";
import type { DeploymentConfig } from "../graphs/deployment-config.js";
import { importDeploymentExport, type GraphModuleLoader } from "../graphs/graph-module-loader.js";
import type { Logger } from "../logger.js";
import { AuthResultCache, DEFAULT_AUTH_CACHE_MAX_SIZE, DEFAULT_AUTH_CACHE_TTL_SECONDS } from "./auth-result-cache.js";
import type { AuthenticateHandler, AuthHandler, CustomAuthHandlers } from "./auth-types.js";

/**
 * langgraph.json `auth`. `path` names the module; `cache` keeps `authenticate` results
 * (auth-result-cache.ts); `disable_studio_auth` and `openapi` are LangGraph Platform keys Hangar
 * reads (see loadCustomAuth). Any other key may change who can
 * do what, so it stops start-up rather than being ignored.
 */
const AuthSection = z.strictObject({
  path: z.string().min(1).optional(),
  cache: z
    .strictObject({
      cache_keys: z.array(z.string().min(1)).min(1).optional(),
      ttl_seconds: z.number().positive().optional(),
      max_size: z.number().int().positive().optional(),
    })
    .optional(),
  disable_studio_auth: z.boolean().optional(),
  openapi: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Loads the deployment's custom auth: the `Auth` instance exported by `auth.path` (TypeScript or
 * JavaScript, through the graphs' module loader, so it may bring its own copy of the SDK).
 * Returns null when the deployment has none. Throws (stopping start-up) with a message naming
 * the file when the section is malformed, the module does not load, or the export is no Auth.
 */
export async function loadCustomAuth(
  deployment: DeploymentConfig,
  loader: GraphModuleLoader,
  log: Logger,
): Promise<CustomAuthHandlers | null> {
  if (deployment.auth === undefined) return null;
  const where = `Invalid deployment config ${deployment.path}: auth`;
  const parsed = AuthSection.safeParse(deployment.auth);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${[ "auth", ...issue.path].join(".")}: ${issue.message}`);
    throw new Error(`${where}: ${problems.join("; ")} (Hangar refuses auth settings it does not implement)`);
  }
  const section = parsed.data;
  if (section.openapi !== undefined) {
    log.warn("langgraph.json auth.openapi only documents the security scheme in LangGraph's OpenAPI page; Hangar serves no OpenAPI page, so it has no effect");
  }
  if (section.disable_studio_auth === false) {
    // LangGraph Platform lets LangSmith-authenticated Studio sessions bypass the handlers; Hangar
    // cannot verify a LangSmith session, so Studio requests are authenticated like any other.
    log.warn("langgraph.json auth.disable_studio_auth=false: Hangar never trusts Studio's x-auth-scheme header; Studio requests go through your authenticate handler");
  }
  if (section.path === undefined) return null;

  const { exported, exportName, absolutePath } = await importDeploymentExport(loader, deployment.directory, "auth.path", section.path);
  const handlers = handlersOf(exported);
  if (!handlers) {
    throw new Error(
      `auth.path "${section.path}" (${absolutePath}): export "${exportName}" is not an Auth instance from @langchain/langgraph-sdk/auth`,
    );
  }
  if (section.cache) {
    handlers.resultCache = new AuthResultCache({
      cacheKeys: section.cache.cache_keys ?? null,
      ttlSeconds: section.cache.ttl_seconds ?? DEFAULT_AUTH_CACHE_TTL_SECONDS,
      maxSize: section.cache.max_size ?? DEFAULT_AUTH_CACHE_MAX_SIZE,
    });
  }
  log.info(
    {
      path: section.path,
      authenticate: handlers.authenticate !== undefined,
      handlers: Object.keys(handlers.callbacks),
      cache: section.cache ?? null,
    },
    "custom auth loaded",
  );
  return handlers;
}

/**
 * The handlers an `Auth` instance holds. The SDK's Auth class keeps what `authenticate()` and
 * `on()` registered in its `~handlerCache` property and exposes no other reader: the `~` prefix
 * is its integration point for servers (LangGraph's own server reads it the same way). Read by
 * shape, since the module may use another copy of the SDK; checked so a change of shape in a
 * future SDK stops start-up instead of running open.
 */
function handlersOf(exported: unknown): CustomAuthHandlers | null {
  if (typeof exported !== "object" || exported === null || !("~handlerCache" in exported)) return null;
  const cache = (exported as { "~handlerCache": unknown })["~handlerCache"];
  if (typeof cache !== "object" || cache === null) return null;
  const { authenticate, callbacks } = cache as { authenticate?: unknown; callbacks?: unknown };
  if (authenticate !== undefined && typeof authenticate !== "function") return null;
  if (callbacks !== undefined && (typeof callbacks !== "object" || callbacks === null)) return null;
  const handlers: Record<string, AuthHandler> = {};
  for (const [event, handler] of Object.entries(callbacks ?? {})) {
    if (typeof handler !== "function") return null;
    handlers[event] = handler as AuthHandler;
  }
  return { authenticate: authenticate as AuthenticateHandler | undefined, callbacks: handlers };
}
