import type { Logger } from "../logger.js";
import type { AuthUser } from "../auth/auth-types.js";
import type { Actor } from "../services/service-context.js";

/** Per-request values set by the HTTP middleware, read by REST routes and the GraphQL handler. */
export interface HttpEnv {
  Variables: {
    actor: Actor;
    log: Logger;
    /** The request's trace id (access-log.ts), carried by its log lines. */
    requestId: string;
    /** The authenticated user, for the deployment's `http.app` (LangGraph's JS server names it so); unset for API keys. */
    auth?: { user: AuthUser; scopes: string[] };
  };
}
