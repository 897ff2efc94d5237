import type { CustomAuthHandlers } from "./auth/auth-types.js";
import type { Hono } from "hono";
import type { HangarConfig } from "./config.js";
import type { GenerativeUi } from "./http/generative-ui.js";
import type { HttpEnv } from "./http/http-env.js";
import type { Database } from "./db/database.js";
import type { DeploymentConfig, GraphRegistry } from "./graphs/graph-registry.js";
import type { WebhookSettings } from "./graphs/webhooks-config.js";
import type { Logger } from "./logger.js";
import type { ReadinessProbes } from "./services/readiness.service.js";
import type { HangarMetrics } from "./metrics/hangar-metrics.js";
import type { RunStreaming } from "./streaming/run-streaming.js";
import type { Actor, ServiceContext } from "./services/service-context.js";
import type { JsonFieldCipher } from "./db/json-field-cipher.js";
import type { EncryptionContextHandler } from "./graphs/load-encryption.js";
import { requestEncryption } from "./services/field-encryption.js";

/** What a running Hangar process holds: built once in main.ts and handed to every transport. */
export interface HangarRuntime {
  config: Readonly<HangarConfig>;
  db: Database;
  graphs: GraphRegistry;
  /** The parsed langgraph.json (graphs, env, http, auth). */
  deployment: DeploymentConfig;
  log: Logger;
  streaming: RunStreaming;
  /** The deployment's own Hono app (langgraph.json `http.app`), mounted in front of Hangar's routes. */
  customRoutes?: Hono<HttpEnv> | null;
  /** The bundles of langgraph.json `ui` (generative UI), served under /ui. */
  generativeUi?: GenerativeUi;
  /** The deployment's custom auth handlers (langgraph.json `auth.path`), or null. */
  customAuth: CustomAuthHandlers | null;
  /** langgraph.json `webhooks` resolved (URL policy with HANGAR_WEBHOOK_ALLOWED_NETWORKS, headers). */
  webhooks: WebhookSettings;
  /** Prometheus metrics (GET /metrics, or HANGAR_METRICS_PORT). */
  metrics?: HangarMetrics;
  /** What readiness probes besides the database (filled in as Redis and the worker start). */
  readiness?: ReadinessProbes;
  /** langgraph.json `encryption` JSON handlers (the cipher) and its `context` handler, when it has them. */
  jsonEncryption?: { cipher: JsonFieldCipher; context: EncryptionContextHandler | null } | null;
}

/** A service context for one request or job. */
export function createServiceContext(runtime: HangarRuntime, actor: Actor, log: Logger = runtime.log): ServiceContext {
  return {
    db: runtime.db,
    graphs: runtime.graphs,
    log,
    now: () => new Date(),
    actor,
    customAuth: runtime.customAuth,
    streaming: runtime.streaming,
    threadTtl: runtime.deployment.checkpointer.ttl,
    webhookPolicy: runtime.webhooks.policy,
    metrics: runtime.metrics,
    webhooksDisabled: runtime.deployment.http?.disable_webhooks === true,
    ...(runtime.jsonEncryption
      ? { encryption: requestEncryption(runtime.jsonEncryption.cipher, runtime.jsonEncryption.context, actor, log, runtime.db.dataSource.manager) }
      : {}),
  };
}
