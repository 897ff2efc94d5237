import type { Logger } from "../logger.js";
import type { Actor } from "../services/service-context.js";

/** Per-request values set by the HTTP middleware, read by REST routes and the GraphQL handler. */
export interface HttpEnv {
  Variables: {
    actor: Actor;
    log: Logger;
    /** The request's trace id (access-log.ts), carried by its log lines. */
    requestId: string;
  };
}
