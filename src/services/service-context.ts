import type { Database } from "../db/database.js";
import type { GraphRegistry } from "../graphs/graph-registry.js";
import type { Logger } from "../logger.js";
import type { RunStreaming } from "../streaming/run-streaming.js";

/** Who is calling. API keys are all-or-nothing today, so every caller is the same principal. */
export interface Actor {
  kind: "api-key" | "anonymous";
}

/** What every service method receives first: handles, clock, logger and caller. */
export interface ServiceContext {
  db: Database;
  graphs: GraphRegistry;
  log: Logger;
  now(): Date;
  actor: Actor;
  /** Run events, their replay store and queue wake-ups (runs, streams, joins). */
  streaming: RunStreaming;
}
