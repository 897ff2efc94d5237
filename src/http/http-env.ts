import type { Logger } from "../logger.js";
import type { Actor } from "../services/service-context.js";

/** Per-request values set by the HTTP middleware, read by REST routes and the GraphQL handler. */
export interface HttpEnv {
  Variables: {
    actor: Actor;
    log: Logger;
  };
}
