import http from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { HangarConfig } from "./config.js";
import { openDatabase, type Database } from "./db/database.js";
import { migrateDatabase } from "./db/migrate.js";
import { loadGraphRegistry } from "./graphs/graph-registry.js";
import { attachGraphqlWebSocket } from "./graphql/websocket.js";
import { createGraphqlServer } from "./graphql/yoga.js";
import { createHttpApp } from "./http/http-app.js";
import type { Logger } from "./logger.js";
import { createServiceContext, type HangarRuntime } from "./runtime.js";
import { assistantsService } from "./services/assistants.service.js";

export interface RunningHangar {
  url: string;
  runtime: HangarRuntime;
  /** Stops intake, then releases resources in reverse order of acquisition. Idempotent. */
  close(): Promise<void>;
}

/**
 * Start-up order: graphs (fail fast on a broken deployment, before touching the database) →
 * database → migrations → system assistants → HTTP + WebSocket. Shutdown runs the reverse.
 */
export async function startHangar(config: Readonly<HangarConfig>, log: Logger): Promise<RunningHangar> {
  if (config.apiKeys.length === 0) {
    log.warn("HANGAR_API_KEYS is not set: the API is open to anyone who can reach it");
  }
  const { registry: graphs, config: deployment } = await loadGraphRegistry(config.deploymentConfigPath, log);
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }, log);
  const releasers: Array<() => Promise<void>> = [() => db.close()];
  try {
    await migrateDatabase(db, log);
    const runtime: HangarRuntime = { config, db, graphs, deployment, log };
    await assistantsService.ensureSystemAssistants(createServiceContext(runtime, { kind: "anonymous" }));

    const graphql = createGraphqlServer(runtime);
    const app = createHttpApp(runtime, graphql);
    const server = http.createServer(getRequestListener(app.fetch));
    const closeWebSocket = attachGraphqlWebSocket(server, graphql, runtime);
    await listen(server, config.port, config.host);
    // WebSockets first: server.close() waits for upgraded sockets, which it never closes itself.
    releasers.push(async () => {
      await closeWebSocket();
      await closeServer(server);
    });
    const { port } = server.address() as AddressInfo;
    const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
    log.info({ url, graphs: graphs.names(), database: db.kind }, "Hangar is listening");

    let closing: Promise<void> | null = null;
    return {
      url,
      runtime,
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

/** `hangar migrate`: apply migrations and exit. */
export async function migrateOnly(config: Readonly<HangarConfig>, log: Logger): Promise<string[]> {
  const db: Database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }, log);
  try {
    return await migrateDatabase(db, log);
  } finally {
    await db.close();
  }
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

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
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
