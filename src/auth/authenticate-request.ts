import { ENCRYPTION_CONTEXT_HEADER, parseEncryptionContextHeader } from "../domain/encryption.js";
import { UnauthenticatedError } from "../domain/errors.js";
import { authenticateRequest as checkApiKey } from "./api-keys.js";
import type { Logger } from "../logger.js";
import type { Actor } from "../services/service-context.js";
import type { AuthUser, CustomAuthHandlers } from "./auth-types.js";
import { toAppError } from "./handler-errors.js";

export interface RequestAuthentication {
  apiKeys: readonly string[];
  customAuth: CustomAuthHandlers | null;
}

/**
 * Decides who a request is, for every transport (REST, GraphQL over HTTP and SSE, the graphql-ws
 * upgrade and connection_init, /tracing). A valid HANGAR_API_KEYS key comes first and makes the
 * caller a trusted backend (no handlers apply); otherwise the deployment's `authenticate` runs
 * once on the request and what it returns is the user. With neither configured, anyone may call.
 * Throws the refusal (401 by default, or the handler's own HTTPException) when neither accepts.
 */
export async function authenticateCaller(
  settings: RequestAuthentication,
  request: Request,
  log: Logger,
): Promise<Actor> {
  const actor = await decideCaller(settings, request, log);
  // Read once authenticated (an unauthenticated caller gets its 401 whatever it sent).
  const header = request.headers.get(ENCRYPTION_CONTEXT_HEADER);
  return header === null ? actor : { ...actor, encryptionContext: parseEncryptionContextHeader(header) };
}

async function decideCaller(settings: RequestAuthentication, request: Request, log: Logger): Promise<Actor> {
  const { apiKeys, customAuth } = settings;
  const keyActor = checkApiKey(apiKeys, request.headers);
  if (keyActor && keyActor.kind === "api-key") return keyActor;
  const authenticate = customAuth?.authenticate;
  if (!authenticate) {
    if (keyActor) return keyActor;
    throw new UnauthenticatedError();
  }
  const cache = customAuth.resultCache;
  const cacheKey = cache?.keyOf(request);
  const cached = cacheKey === undefined ? undefined : cache!.get(cacheKey);
  // A copy: handlers receive the user and may change it; the cached one stays as authenticated.
  if (cached) return { kind: "user", user: { ...cached, permissions: [...cached.permissions] } };
  let returned: unknown;
  try {
    returned = await authenticate(request);
  } catch (error) {
    throw toAppError(error, "auth authenticate handler", log);
  }
  const user = toAuthUser(returned, log);
  if (cacheKey !== undefined) cache!.set(cacheKey, user);
  return { kind: "user", user };
}

/**
 * What `authenticate` may return, as the SDK types it: a string (the identity) or an object with
 * a string `identity`, optional `permissions`, `display_name`, `is_authenticated` and any custom
 * fields (kept: handlers and graphs read them).
 */
function toAuthUser(returned: unknown, log: Logger): AuthUser {
  if (typeof returned === "string" && returned.length > 0) {
    return { identity: returned, permissions: [], display_name: returned, is_authenticated: true };
  }
  if (typeof returned === "object" && returned !== null && typeof (returned as { identity?: unknown }).identity === "string") {
    const user = returned as Record<string, unknown> & { identity: string };
    const permissions = Array.isArray(user.permissions) ? user.permissions.filter((p): p is string => typeof p === "string") : [];
    return {
      ...user,
      identity: user.identity,
      permissions,
      display_name: typeof user.display_name === "string" ? user.display_name : user.identity,
      is_authenticated: typeof user.is_authenticated === "boolean" ? user.is_authenticated : true,
    };
  }
  throw toAppError(
    new Error("authenticate must return a string identity or an object with a string `identity`"),
    "auth authenticate handler",
    log,
  );
}
