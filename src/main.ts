import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { HangarConfig } from "./config.js";
import { openDatabase, type Database } from "./db/database.js";
import { migrateDatabase } from "./db/migrate.js";
import { loadCustomAuth } from "./auth/load-custom-auth.js";
import { loadCustomRoutes } from "./http/custom-routes.js";
import { loadGenerativeUi } from "./http/generative-ui.js";
import { registerSdkLoopback } from "./http/sdk-loopback.js";
import { mountPrefixOf, withMountPrefix } from "./http/mount-prefix.js";
import { slowClientDeadlines } from "./http/slow-clients.js";
import { registerSdkLogger } from "./graphs/graph-logger.js";
import { reviewDeploymentKeys } from "./graphs/deployment-keys.js";
import { loadEncryption } from "./graphs/load-encryption.js";
import { JsonFieldCipher } from "./db/json-field-cipher.js";
import { resolveWebhookSettings } from "./graphs/webhooks-config.js";
import { loadGraphRegistry } from "./graphs/graph-registry.js";
import { loadStoreIndex } from "./graphs/store-embeddings.js";
import { createStaticSchemaCache } from "./graphs/static-schemas/static-schema-cache.js";
import { attachGraphqlWebSocket } from "./graphql/websocket.js";
import { attachProtocolWebSocket } from "./http/protocol-websocket.js";
import { createGraphqlServer } from "./graphql/yoga.js";
import { createHttpApp } from "./http/http-app.js";
import type { Logger } from "./logger.js";
import { createServiceContext, type HangarRuntime } from "./runtime.js";
import { assistantsService } from "./services/assistants.service.js";
import { RunEventBus } from "./streaming/run-event-bus.js";
import { RunEventStore } from "./streaming/run-event-store.js";
import { listenForRunSignals, RunSignals } from "./streaming/run-signals.js";
import type { RunStreaming } from "./streaming/run-streaming.js";
import { TraceRecorder } from "./services/traces/trace-recorder.js";
import { startCronScheduler, type CronScheduler } from "./cron/cron-scheduler.js";
import { RunWorker } from "./worker/run-worker.js";
import { startTtlSweeper } from "./retention/ttl-sweeper.js";
import { HangarMetrics } from "./metrics/hangar-metrics.js";
import { startMetricsServer } from "./http/metrics-server.js";
import type { ReadinessProbes } from "./services/readiness.service.js";
import { WebhookDispatcher } from "./webhooks/webhook-dispatcher.js";
import type { ServerPathFetch } from "./webhooks/webhook-sender.js";

export interface RunningHangar {
  /** Empty when this process serves no HTTP (`hangar worker`). */
  url: string;
  /** The HANGAR_METRICS_PORT server's address; absent when /metrics is on the API's port. */
  metricsUrl?: string;
  runtime: HangarRuntime;
  worker: RunWorker | null;
  /** null when this process runs no cron scheduler (`--no-cron`). */
  scheduler: CronScheduler | null;
  /** Stops intake, then releases resources in reverse order of acquisition. Idempotent. */
  close(): Promise<void>;
}

/**
 * Start-up order: graphs (fail fast on a broken deployment, before touching the database) →
 * database → migrations → system assistants → run streaming → HTTP + WebSocket → run worker →
 * cron scheduler. Shutdown runs the reverse: the cron scheduler stops queueing runs first, then
 * the worker stops claiming and drains its runs (their streams still reach clients), then HTTP
 * closes, then streaming and the database.
 */
export async function startHangar(config: Readonly<HangarConfig>, log: Logger): Promise<RunningHangar> {
  // Graph modules may call getLogger() at import time.
  registerSdkLogger(log);
  const { registry: graphs, config: deployment, loader } = await loadGraphRegistry(config.deploymentConfigPath, log, {
    schemasFromTypes: config.schemasFromTypes,
    cache: createStaticSchemaCache(path.join(config.dataDir, "schema-cache")),
  });
  const { ignored, refused } = reviewDeploymentKeys(deployment);
  if (refused.length > 0) throw new Error(`langgraph.json ${deployment.path}: ${refused.join("; ")}`);
  // Every graph's schemas, computed in the background from here: compiling the deployment's
  // types takes seconds (in a child process), which overlap with opening and migrating the
  // database, so the schemas are usually cached before anyone asks for them.
  if (config.roles.api) void graphs.prepareSchemas();
  if (ignored.length > 0) log.warn({ keys: ignored }, "langgraph.json keys Hangar ignores");
  // process.env here includes langgraph.json `env` (applied by loadGraphRegistry).
  const webhooks = resolveWebhookSettings(deployment.webhooks, process.env, config.webhookAllowedNetworks);
  const customAuth = await loadCustomAuth(deployment, loader, log);
  const customRoutes = await loadCustomRoutes(deployment, loader);
  // A module that fails to load stops start-up before the database opens: nothing is written in clear.
  const encryption = await loadEncryption(deployment, loader, log);
  const jsonCipher = encryption?.json ? new JsonFieldCipher(encryption.json, log.child({ component: "encryption" })) : null;
  // Bundled only where HTTP is served; a broken entry stops start-up before the database opens.
  const generativeUi = config.roles.api && deployment.http?.disable_ui !== true ? await loadGenerativeUi(deployment, log) : new Map();
  // Only a process that serves the API can leave it open (`hangar worker` serves no HTTP).
  if (config.roles.api && config.apiKeys.length === 0 && !customAuth?.authenticate) {
    log.warn(
      "The API is open to anyone who can reach it: set HANGAR_API_KEYS (shared keys for trusted backends) " +
        "or give langgraph.json an auth.path module with an authenticate handler (per-user auth)",
    );
  }
  const db = await openDatabase(
    {
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      embeddedSharedBuffers: config.embeddedSharedBuffers,
      poolSize: config.dbPoolSize,
      store: { ttl: deployment.store.ttl, index: await loadStoreIndex(deployment, loader), cipher: jsonCipher },
      checkpointCipher: encryption?.blob ?? null,
    },
    log,
  );
  const releasers: Array<() => Promise<void>> = [() => db.close()];
  try {
    await migrateDatabase(db, log);
    const readiness: ReadinessProbes = {};
    const streaming = await startRunStreaming(config, db, log, releasers, readiness);
    const metrics = new HangarMetrics({ db });
    const runtime: HangarRuntime = {
      config,
      db,
      graphs,
      deployment,
      log,
      streaming,
      customAuth,
      customRoutes,
      generativeUi,
      webhooks,
      metrics,
      readiness,
      jsonEncryption: jsonCipher ? { cipher: jsonCipher, context: encryption?.context ?? null } : null,
    };
    await assistantsService.ensureSystemAssistants(createServiceContext(runtime, { kind: "anonymous" }));
    const sweeper = startTtlSweeper(runtime, log.child({ component: "ttl-sweeper" }));
    releasers.push(() => sweeper.close());

    const { url, serverPath } = config.roles.api ? await startHttp(runtime, releasers) : { url: "", serverPath: null };
    // Every process delivers webhooks (the outbox is shared); only one serving HTTP takes those to its own paths.
    // Stopped before HTTP closes, after the worker drained (its runs' webhooks stay queued for the next process).
    const dispatcher = new WebhookDispatcher(createServiceContext(runtime, { kind: "anonymous" }, log.child({ component: "webhooks" })), {
      settings: webhooks,
      signingKey: config.webhookSigningKey,
      serverPath,
    });
    dispatcher.start();
    releasers.push(() => dispatcher.stop(config.shutdownGraceMs));
    let worker: RunWorker | null = null;
    if (config.roles.worker) {
      const running = new RunWorker(createServiceContext(runtime, { kind: "anonymous" }, log.child({ component: "worker" })), {
        concurrency: config.workerConcurrency,
        leaseMs: config.runLeaseMs,
        tracing: config.traceGraphRuns
          ? new TraceRecorder(createServiceContext(runtime, { kind: "anonymous" }, log.child({ component: "tracing" })))
          : undefined,
      });
      running.start();
      worker = running;
      readiness.workerClaimLoop = () => running.claimLoopHealth();
      releasers.push(() => running.stop(config.shutdownGraceMs));
    }
    let scheduler: CronScheduler | null = null;
    if (config.roles.cron) {
      const started = await startCronScheduler(runtime, log.child({ component: "cron-scheduler" }));
      scheduler = started;
      releasers.push(() => started.close());
    }
    let metricsUrl: string | undefined;
    if (config.metricsPort !== null) {
      const metricsServer = await startMetricsServer(runtime, config.metricsPort);
      metricsUrl = metricsServer.url;
      releasers.push(() => metricsServer.close());
    }
    const mountPrefix = mountPrefixOf(deployment) || undefined;
    log.info({ url, mountPrefix, metricsUrl, graphs: graphs.names(), database: db.kind, roles: config.roles }, "Hangar is running");

    let closing: Promise<void> | null = null;
    return {
      url,
      metricsUrl,
      runtime,
      worker,
      scheduler,
      close() {
        closing ??= releaseAll(releasers, log);
        return closing;
      },
    };
  } catch (error) {
    await releaseAll(releasers, log);
    throw error;
  }
}

/**
 * Live run events (in-process bus, extended through Redis when REDIS_URL is set), their stored
 * copy for replay with periodic retention, and queue wake-ups (relayed NOTIFYs on PostgreSQL).
 */
async function startRunStreaming(
  config: Readonly<HangarConfig>,
  db: Database,
  log: Logger,
  releasers: Array<() => Promise<void>>,
  readiness: ReadinessProbes,
): Promise<RunStreaming> {
  const bus = new RunEventBus();
  const streaming: RunStreaming = { bus, store: new RunEventStore(db, bus, log), signals: new RunSignals() };
  releasers.push(() => streaming.store.close());
  const sweep = setInterval(() => {
    const cutoff = new Date(Date.now() - config.eventRetentionSeconds * 1000);
    streaming.store.deleteOlderThan(cutoff).catch((error: unknown) => log.warn({ err: error }, "event retention sweep failed"));
  }, 60_000);
  sweep.unref();
  releasers.push(async () => clearInterval(sweep));
  if (config.databaseUrl) {
    const listener = await listenForRunSignals(config.databaseUrl, streaming.signals, log, db.isOwnBackend);
    releasers.push(() => listener.close());
  }
  if (config.redisUrl) {
    // Loaded only when configured: the Redis client is not needed otherwise.
    const { attachRedisFanout } = await import("./streaming/redis-fanout.js");
    const fanout = await attachRedisFanout(streaming.bus, config.redisUrl, log);
    releasers.push(() => fanout.close());
    readiness.redis = fanout.ping;
  }
  return streaming;
}

async function startHttp(
  runtime: HangarRuntime,
  releasers: Array<() => Promise<void>>,
): Promise<{ url: string; serverPath: ServerPathFetch }> {
  const { config } = runtime;
  const graphql = createGraphqlServer(runtime);
  const beforeServerClose: Array<() => Promise<void>> = [];
  const app = createHttpApp(runtime, graphql, beforeServerClose);
  const mountPrefix = mountPrefixOf(runtime.deployment);
  const unregisterLoopback = registerSdkLoopback(app, mountPrefix);
  releasers.push(async () => unregisterLoopback());
  const server = http.createServer(slowClientDeadlines(config), getRequestListener(app.fetch));
  const closeWebSocket = attachGraphqlWebSocket(server, graphql, runtime);
  const closeProtocolWebSocket = attachProtocolWebSocket(server, runtime);
  await listen(server, config.port, config.host);
  // WebSockets first: server.close() waits for upgraded sockets, which it never closes itself.
  releasers.push(async () => {
    for (const close of beforeServerClose) await close();
    await closeWebSocket();
    await closeProtocolWebSocket();
    await closeServer(server);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`,
    // A webhook's path of this server may leave out http.mount_prefix, as the SDK's loopback does.
    serverPath: async (path, init) => app.request(withMountPrefix(path, mountPrefix), init),
  };
}

async function releaseAll(releasers: Array<() => Promise<void>>, log: Logger): Promise<void> {
  for (const release of releasers.reverse()) {
    try {
      await release();
    } catch (error) {
      log.error({ err: error }, "failed to release a resource during shutdown");
    }
  }
}

/**
 * How many connections the kernel may hold complete before the server accepts them (Linux caps it
 * at net.core.somaxconn, 4096 by default since 5.4). Node's default, 511, is too few for a burst:
 * 1,000 clients opening a stream each at once (bench/streams.ts) overflowed it while the server was
 * busy (846 TcpExtListenOverflows); each dropped handshake is retried by the client's kernel only
 * after 1 s, then 3 s, 7 s…, which put seconds on those streams' first event (p99). Accepted at
 * once, the burst's requests share the CPU instead, so their first events come closer together.
 */
const LISTEN_BACKLOG = 4096;

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code !== "EADDRINUSE") return reject(error);
      reject(new Error(`port ${port} on ${host} is already in use (EADDRINUSE): stop what listens there, or choose another port with PORT=<port> or --port <port>`));
    };
    server.once("error", onError);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Keep-alive sockets would hold close() open until they time out.
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 5_000).unref();
  });
}
