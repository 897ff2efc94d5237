import type { AuthUser, CustomAuthHandlers } from "../auth/auth-types.js";
import type { Database } from "../db/database.js";
import type { JsonObject } from "../domain/json.js";
import type { GraphRegistry } from "../graphs/graph-registry.js";
import type { WebhookUrlPolicy } from "../domain/webhook.js";
import type { Logger } from "../logger.js";
import type { HangarMetrics } from "../metrics/hangar-metrics.js";
import type { RunStreaming } from "../streaming/run-streaming.js";
import type { RequestEncryption } from "./field-encryption.js";

/**
 * Who is calling. With custom auth every caller is a `user` (what the deployment's `authenticate`
 * returned); otherwise an API key holder or, with no keys configured, anyone. Internal callers
 * (crons firing) act as the user who created them.
 */
export interface Actor {
  kind: "api-key" | "anonymous" | "user";
  /** Set for `user` actors; the value handlers receive as `user`. */
  user?: AuthUser;
  /**
   * The encryption context the caller sent (X-Encryption-Context, parsed at the edge): the start
   * of its writes' encryption context (services/field-encryption.ts).
   */
  encryptionContext?: JsonObject;
}

/** What every service method receives first: handles, clock, logger and caller. */
export interface ServiceContext {
  db: Database;
  graphs: GraphRegistry;
  log: Logger;
  now(): Date;
  actor: Actor;
  /** The deployment's `auth` handlers, when it has custom auth; authorize() consults them. */
  customAuth: CustomAuthHandlers | null;
  /** Run events, their replay store and queue wake-ups (runs, streams, joins). */
  streaming: RunStreaming;
  /** langgraph.json checkpointer.ttl: the TTL new threads get when they ask for none. */
  threadTtl?: { defaultTtlMinutes: number | null };
  /** langgraph.json `webhooks.url` + HANGAR_WEBHOOK_ALLOWED_NETWORKS: where run webhooks may go. */
  webhookPolicy?: WebhookUrlPolicy;
  /** langgraph.json `http.disable_webhooks`: finished runs queue no webhook call. */
  webhooksDisabled?: boolean;
  /** The process's Prometheus metrics (absent in contexts built by hand, e.g. some tests). */
  metrics?: HangarMetrics;
  /** langgraph.json `encryption` with JSON handlers: seals and opens JSON fields (services/field-encryption.ts). */
  encryption?: RequestEncryption;
}
