import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@langchain/langgraph-sdk";
import { expect } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createLogger, type Logger } from "../../src/logger.js";
import { startHangar, type RunningHangar } from "../../src/main.js";
import { createTestDatabase, type TestDatabase } from "./test-database.js";

const here = path.dirname(fileURLToPath(import.meta.url));
export const FIXTURE_DEPLOYMENT = path.resolve(here, "../fixtures/langgraph.json");

export interface TestServer {
  url: string;
  hangar: RunningHangar;
  database: TestDatabase;
  /** The official LangGraph SDK client pointed at this server (no retries: tests see errors). */
  client: Client;
  /** Plain fetch against the server with the test's API key, for wire-level assertions. */
  request(pathname: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  apiKeys?: string[];
  configPath?: string;
  maxBodyBytes?: number;
  /** Share a database with another test server (multi-process scenarios); it is not retired on close. */
  database?: TestDatabase;
  /** Extra environment (REDIS_URL, HANGAR_RUN_LEASE_MS, ...). */
  env?: Record<string, string>;
  /** Roles of this server; `cron` defaults to true like `hangar serve`. */
  roles?: { api: boolean; worker: boolean; cron?: boolean };
  /** The server's logger (to assert on log lines); default: LOG_LEVEL from TEST_LOG_LEVEL. */
  logger?: Logger;
}

/**
 * Servers started and not closed yet, each named by the test that started it: a test file must
 * close every server it starts (test/helpers/leak-check.ts fails the file that does not).
 */
const openServers = new Map<TestServer, string>();

/** The servers still running, by who started them; closes them (so the next file starts clean). */
export async function closeLeakedTestServers(): Promise<string[]> {
  const leaked = [...openServers];
  openServers.clear();
  await Promise.allSettled(leaked.map(([server]) => server.close()));
  return leaked.map(([server, startedBy]) => `a Hangar at ${server.url} (started by ${startedBy})`);
}

function currentTestLabel(): string {
  const { testPath, currentTestName } = expect.getState();
  return [testPath ? path.relative(process.cwd(), testPath) : "an unknown file", currentTestName ?? "beforeAll"].join(" › ");
}

/** A real Hangar on a random port over a fresh PostgreSQL database. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const ownsDatabase = !options.database;
  const database = options.database ?? (await createTestDatabase());
  try {
    return await startOnDatabase(options, database, ownsDatabase);
  } catch (error) {
    // A server that failed to start (bad config, a deployment that does not load) leaves no
    // database behind: the test files that expect such failures would otherwise leak one each.
    if (ownsDatabase) await database.retire();
    throw error;
  }
}

async function startOnDatabase(options: TestServerOptions, database: TestDatabase, ownsDatabase: boolean): Promise<TestServer> {
  const config = loadConfig(
    {
      DATABASE_URL: database.url,
      PORT: "0",
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
      HANGAR_API_KEYS: options.apiKeys?.join(","),
      HANGAR_MAX_BODY_BYTES: options.maxBodyBytes ? String(options.maxBodyBytes) : undefined,
      // Compiling each deployment's TypeScript types costs seconds of CPU per server: only the
      // tests about those schemas turn it on.
      HANGAR_SCHEMAS_FROM_TYPES: "false",
      ...options.env,
    },
    { configPath: options.configPath ?? FIXTURE_DEPLOYMENT, roles: options.roles },
  );
  const hangar = await startHangar(config, options.logger ?? createLogger(config.logLevel));
  const apiKey = options.apiKeys?.[0];
  let closing: Promise<void> | null = null;
  const server: TestServer = {
    url: hangar.url,
    hangar,
    database,
    client: new Client({ apiUrl: hangar.url, apiKey: apiKey ?? null, callerOptions: { maxRetries: 0 } } as never),
    request(pathname, init = {}) {
      const headers = new Headers(init.headers);
      if (apiKey && !headers.has("x-api-key")) headers.set("x-api-key", apiKey);
      return fetch(`${hangar.url}${pathname}`, { ...init, headers });
    },
    close() {
      openServers.delete(server);
      closing ??= (async () => {
        await hangar.close();
        if (ownsDatabase) await database.retire();
      })();
      return closing;
    },
  };
  openServers.set(server, currentTestLabel());
  return server;
}

/**
 * Two Hangar processes on one database, as a split deployment runs them: `executing` runs graphs,
 * `apiOnly` serves the API without a worker; run events are announced through Redis unless
 * `redis: false` (then only through the database).
 */
export interface SplitProcesses {
  database: TestDatabase;
  executing: TestServer;
  apiOnly: TestServer;
  close(): Promise<void>;
}

export async function startSplitProcesses(options: { redis?: boolean } = {}): Promise<SplitProcesses> {
  const env: Record<string, string> = options.redis === false ? {} : { REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" };
  const database = await createTestDatabase();
  const started: TestServer[] = [];
  const close = async () => {
    for (const server of started.reverse()) await server.close();
    await database.retire();
  };
  try {
    const executing = await startTestServer({ database, env });
    started.push(executing);
    const apiOnly = await startTestServer({ database, env, roles: { api: true, worker: false } });
    started.push(apiOnly);
    return { database, executing, apiOnly, close };
  } catch (error) {
    await close();
    throw error;
  }
}
