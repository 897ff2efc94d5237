import path from "node:path";
import { z } from "zod";
import { allowedNetworksProblem } from "./domain/webhook.js";
import { parseWebhookSecret } from "./domain/webhook-signature.js";
import { HANGAR_PACKAGE_DIR } from "./version.js";

/** The embedded database's buffer pool unless HANGAR_EMBEDDED_SHARED_BUFFERS says otherwise (db/embedded-pool.ts). */
export const DEFAULT_EMBEDDED_SHARED_BUFFERS = "16MB";

/**
 * What one GraphQL operation may ask for. Of the console's and the tests' operations (with page
 * variables at 100), the largest measure cost 194,137 (a trace tree three levels deep at the
 * default page of 20: up to 8,000 runs), depth 13, 201 tokens and no aliases or directives;
 * test/graphql/query-limits.operations.test.ts checks each stays within half of these defaults.
 * The 100 × 100 × 100 fan-out of issue 25 costs over 3,000,000 and the 1,000-alias bomb is
 * 13,000 tokens. A 10,000-thread page of 9 fields each (cost 90,000) took 0.5 s of CPU here.
 */
export const GRAPHQL_LIMIT_DEFAULTS = Object.freeze({
  maxCost: 400_000,
  maxDepth: 30,
  maxAliases: 30,
  maxTokens: 2_000,
  maxDirectives: 20,
  /** A query or mutation still resolving after this is aborted (subscriptions are not bounded). */
  deadlineMs: 30_000,
  maxSubscriptionsPerSocket: 50,
  /** Pool connections one operation may hold at once, so one caller cannot take the whole pool. */
  maxDbConnections: 4,
});

export type GraphqlLimits = { -readonly [K in keyof typeof GRAPHQL_LIMIT_DEFAULTS]: number };

/**
 * Process environment parsed once at start-up into a frozen object that is passed down
 * explicitly; nothing below main.ts reads process.env for Hangar's own settings.
 */
const EnvSchema = z.object({
  DATABASE_URL: z.string().min(1).optional(),
  HANGAR_DATA_DIR: z.string().min(1).default(".hangar"),
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(2024),
  HANGAR_API_KEYS: z.string().optional(),
  HANGAR_MAX_BODY_BYTES: z.coerce.number().int().positive().default(10 * 1024 * 1024),
  HANGAR_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  HANGAR_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  HANGAR_SHUTDOWN_GRACE_MS: z.coerce.number().int().nonnegative().default(10_000),
  REDIS_URL: z.string().min(1).optional(),
  HANGAR_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  HANGAR_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(16),
  HANGAR_TRACE_GRAPH_RUNS: z.enum(["true", "false", "1", "0"]).default("true"),
  HANGAR_RUN_LEASE_MS: z.coerce.number().int().min(100).default(30_000),
  HANGAR_DB_POOL_SIZE: z.coerce.number().int().min(2).max(500).default(24),
  HANGAR_EVENT_RETENTION_SECONDS: z.coerce.number().int().min(60).default(24 * 3600),
  HANGAR_TRACE_RETENTION_DAYS: z.coerce.number().positive().optional(),
  HANGAR_CRON_BATCH_SIZE: z.coerce.number().int().min(1).max(20_000).default(1_000),
  HANGAR_CRON_POLL_MS: z.coerce.number().int().min(100).default(30_000),
  HANGAR_PROTOCOL_HEARTBEAT_MS: z.coerce.number().int().min(50).default(15_000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  NODE_ENV: z.string().default("production"),
  HANGAR_CONSOLE_DIR: z.string().min(1).optional(),
  HANGAR_SCHEMAS_FROM_TYPES: z.enum(["true", "false", "1", "0"]).default("true"),
  HANGAR_ENABLE_TRUNCATE: z.enum(["true", "false", "1", "0"]).default("false"),
  HANGAR_WEBHOOK_SECRET: z
    .string()
    .refine((secret) => tryParse(() => parseWebhookSecret(secret)) === null, { error: (issue) => tryParse(() => parseWebhookSecret(issue.input as string)) ?? "" })
    .optional(),
  HANGAR_WEBHOOK_ALLOWED_NETWORKS: z
    .string()
    .transform((text) => text.split(",").map((network) => network.trim()).filter(Boolean))
    .refine((networks) => allowedNetworksProblem(networks) === null, { error: (issue) => allowedNetworksProblem(issue.input as string[]) ?? "" })
    .optional(),
  HANGAR_EMBEDDED_SHARED_BUFFERS: z
    .string()
    .regex(/^[1-9][0-9]*(kB|MB|GB)$/, 'a size such as "16MB" or "1GB"')
    .default(DEFAULT_EMBEDDED_SHARED_BUFFERS),
  // GraphQL operation limits (graphql/query-limits.ts); defaults explained in GRAPHQL_LIMIT_DEFAULTS.
  HANGAR_GRAPHQL_MAX_COST: z.coerce.number().int().positive().default(GRAPHQL_LIMIT_DEFAULTS.maxCost),
  HANGAR_GRAPHQL_MAX_DEPTH: z.coerce.number().int().positive().default(GRAPHQL_LIMIT_DEFAULTS.maxDepth),
  HANGAR_GRAPHQL_MAX_ALIASES: z.coerce.number().int().nonnegative().default(GRAPHQL_LIMIT_DEFAULTS.maxAliases),
  HANGAR_GRAPHQL_MAX_TOKENS: z.coerce.number().int().positive().default(GRAPHQL_LIMIT_DEFAULTS.maxTokens),
  HANGAR_GRAPHQL_MAX_DIRECTIVES: z.coerce.number().int().nonnegative().default(GRAPHQL_LIMIT_DEFAULTS.maxDirectives),
  HANGAR_GRAPHQL_DEADLINE_MS: z.coerce.number().int().positive().default(GRAPHQL_LIMIT_DEFAULTS.deadlineMs),
  HANGAR_GRAPHQL_MAX_SUBSCRIPTIONS_PER_SOCKET: z.coerce
    .number()
    .int()
    .positive()
    .default(GRAPHQL_LIMIT_DEFAULTS.maxSubscriptionsPerSocket),
  HANGAR_GRAPHQL_MAX_DB_CONNECTIONS: z.coerce.number().int().positive().default(GRAPHQL_LIMIT_DEFAULTS.maxDbConnections),
});

export interface HangarConfig {
  /** PostgreSQL connection string; absent → embedded PGlite under dataDir. */
  databaseUrl: string | null;
  dataDir: string;
  /** shared_buffers of the embedded database (its memory, against page reads: store HNSW search). */
  embeddedSharedBuffers: string;
  host: string;
  port: number;
  /** Empty → the API is open (a warning is logged at start). */
  apiKeys: readonly string[];
  maxBodyBytes: number;
  /**
   * Slow clients: a request's headers must arrive within headersTimeoutMs and the whole request
   * (headers and body) within requestTimeoutMs of its first byte, or the connection is answered
   * 408 and closed. Responses (SSE streams, long /wait calls) are not limited by either.
   */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  shutdownGraceMs: number;
  redisUrl: string | null;
  /** Serve /metrics (and /ok, /ready) on this port of HOST instead of the API's; null: on the API's. */
  metricsPort: number | null;
  /** Runs one process executes at the same time. */
  workerConcurrency: number;
  /** Record Hangar's own graph runs (nodes, model calls) in the trace store. */
  traceGraphRuns: boolean;
  /** Derive JSON schemas of TypeScript-typed graphs by compiling their types (in the background). */
  schemasFromTypes: boolean;
  /** A worker's claim on a run lasts this long unless renewed (renewed every third of it). */
  runLeaseMs: number;
  /** PostgreSQL connections per process (API + worker share them). */
  dbPoolSize: number;
  /** How long stored stream events stay replayable (Last-Event-ID, Run.events). */
  eventRetentionSeconds: number;
  /** Trace runs older than this many days are deleted by the TTL sweeper; null keeps them forever. */
  traceRetentionDays: number | null;
  /** Crons the scheduler claims and fires per transaction. */
  cronBatchSize: number;
  /** The cron scheduler's longest sleep (a safety net: it wakes at each due time and on changes). */
  cronPollMs: number;
  /**
   * Protocol v2 streams (/threads/{id}/stream/events) send a heartbeat this often: an SSE comment
   * line, or a WebSocket ping (a socket that answered none of the last interval's is closed).
   */
  protocolHeartbeatMs: number;
  /** Which parts this process runs: the HTTP API, the run worker, the cron scheduler. */
  roles: Readonly<HangarRoles>;
  logLevel: z.infer<typeof EnvSchema>["LOG_LEVEL"];
  isDevelopment: boolean;
  /** POST /internal/truncate empties resources (LangGraph dev server's test aid); off by default. */
  enableTruncate: boolean;
  /** Key of Standard Webhooks signatures on webhook deliveries (HANGAR_WEBHOOK_SECRET); null: unsigned. */
  webhookSigningKey: Buffer | null;
  /** CIDR ranges webhooks may reach although not public (loopback, private …). */
  webhookAllowedNetworks: readonly string[];
  /** Path of the langgraph.json deployment config. */
  deploymentConfigPath: string;
  /** The built web console (index.html + assets), served at `/`; default dist/web of the package. */
  consoleDir: string;
  /** Per-operation GraphQL limits (HANGAR_GRAPHQL_*), enforced by graphql/query-limits.ts. */
  graphqlLimits: Readonly<GraphqlLimits>;
}

export interface HangarRoles {
  api: boolean;
  worker: boolean;
  cron: boolean;
}

export function loadConfig(
  env: NodeJS.ProcessEnv,
  overrides: { configPath?: string; port?: number; roles?: { api: boolean; worker: boolean; cron?: boolean } } = {},
): Readonly<HangarConfig> {
  // An empty variable (FOO=) means unset, as shells and CI files commonly write it.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment: ${problems.join("; ")}`);
  }
  const values = parsed.data;
  if (values.HANGAR_HEADERS_TIMEOUT_MS > values.HANGAR_REQUEST_TIMEOUT_MS) {
    throw new Error("Invalid environment: HANGAR_HEADERS_TIMEOUT_MS must not exceed HANGAR_REQUEST_TIMEOUT_MS (the headers are part of the request)");
  }
  return Object.freeze({
    databaseUrl: values.DATABASE_URL ?? null,
    dataDir: path.resolve(values.HANGAR_DATA_DIR),
    embeddedSharedBuffers: values.HANGAR_EMBEDDED_SHARED_BUFFERS,
    host: values.HOST,
    port: overrides.port ?? values.PORT,
    apiKeys: Object.freeze(
      (values.HANGAR_API_KEYS ?? "")
        .split(",")
        .map((key) => key.trim())
        .filter(Boolean),
    ),
    maxBodyBytes: values.HANGAR_MAX_BODY_BYTES,
    headersTimeoutMs: values.HANGAR_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: values.HANGAR_REQUEST_TIMEOUT_MS,
    shutdownGraceMs: values.HANGAR_SHUTDOWN_GRACE_MS,
    redisUrl: values.REDIS_URL ?? null,
    metricsPort: values.HANGAR_METRICS_PORT ?? null,
    workerConcurrency: values.HANGAR_WORKER_CONCURRENCY,
    dbPoolSize: values.HANGAR_DB_POOL_SIZE,
    runLeaseMs: values.HANGAR_RUN_LEASE_MS,
    traceGraphRuns: values.HANGAR_TRACE_GRAPH_RUNS === "true" || values.HANGAR_TRACE_GRAPH_RUNS === "1",
    schemasFromTypes: values.HANGAR_SCHEMAS_FROM_TYPES === "true" || values.HANGAR_SCHEMAS_FROM_TYPES === "1",
    enableTruncate: values.HANGAR_ENABLE_TRUNCATE === "true" || values.HANGAR_ENABLE_TRUNCATE === "1",
    eventRetentionSeconds: values.HANGAR_EVENT_RETENTION_SECONDS,
    traceRetentionDays: values.HANGAR_TRACE_RETENTION_DAYS ?? null,
    cronBatchSize: values.HANGAR_CRON_BATCH_SIZE,
    cronPollMs: values.HANGAR_CRON_POLL_MS,
    protocolHeartbeatMs: values.HANGAR_PROTOCOL_HEARTBEAT_MS,
    roles: Object.freeze({ api: true, worker: true, ...overrides.roles, cron: overrides.roles?.cron ?? true }),
    logLevel: values.LOG_LEVEL,
    isDevelopment: values.NODE_ENV === "development",
    webhookSigningKey: values.HANGAR_WEBHOOK_SECRET ? parseWebhookSecret(values.HANGAR_WEBHOOK_SECRET) : null,
    webhookAllowedNetworks: Object.freeze(values.HANGAR_WEBHOOK_ALLOWED_NETWORKS ?? []),
    deploymentConfigPath: path.resolve(overrides.configPath ?? "langgraph.json"),
    consoleDir: path.resolve(values.HANGAR_CONSOLE_DIR ?? path.join(HANGAR_PACKAGE_DIR, "dist/web")),
    graphqlLimits: Object.freeze({
      maxCost: values.HANGAR_GRAPHQL_MAX_COST,
      maxDepth: values.HANGAR_GRAPHQL_MAX_DEPTH,
      maxAliases: values.HANGAR_GRAPHQL_MAX_ALIASES,
      maxTokens: values.HANGAR_GRAPHQL_MAX_TOKENS,
      maxDirectives: values.HANGAR_GRAPHQL_MAX_DIRECTIVES,
      deadlineMs: values.HANGAR_GRAPHQL_DEADLINE_MS,
      maxSubscriptionsPerSocket: values.HANGAR_GRAPHQL_MAX_SUBSCRIPTIONS_PER_SOCKET,
      maxDbConnections: values.HANGAR_GRAPHQL_MAX_DB_CONNECTIONS,
    }),
  });
}

/** The message a parser throws, or null when it accepts. */
function tryParse(parse: () => unknown): string | null {
  try {
    parse();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
