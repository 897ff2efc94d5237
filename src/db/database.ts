import type { BlobCipher } from "./checkpoint-encryption.js";
import { RunStampingCheckpointer } from "./checkpointer.js";
import { serverSecret } from "./sql/server-secret.js";
import pg from "pg";
import type { DataSource } from "typeorm";
import type { Assistant } from "../domain/assistant.js";
import type { Thread } from "../domain/thread.js";
import type { Logger } from "../logger.js";
import { createDataSource } from "./data-source.js";
import { openEmbeddedPool } from "./embedded-pool.js";
import { BatchedStatement } from "./batched-statement.js";
import { ChangeAnnouncer, type ChangeChannel } from "./change-announcer.js";
import { HangarStore, type HangarStoreOptions } from "./hangar-store.js";
import { SharedPool, withPoolShare } from "./pool-share.js";
import { withRetry, WORKER_WRITE_PATIENCE_MS } from "./retry.js";
import { runStatement } from "./run-statement.js";
import type { EnqueueOutcome, RunToEnqueue } from "./sql/enqueue-rows.js";
import { enqueueRuns } from "./sql/enqueue-runs.js";
import { insertAssistants } from "./sql/insert-assistants.js";
import { insertThreads } from "./sql/insert-threads.js";
import { selectAssistantsOfReads, type AssistantRead } from "./sql/select-assistant.js";
import { updateAssistants, type AssistantUpdate } from "./sql/update-assistants.js";
import { notifyChannels } from "./sql/notify-channels.js";
import { settleRunOutcomes, type RunOutcomeRecord, type SettledRun } from "./sql/settle-run-outcomes.js";

/** How long a query waits for a pooled connection (an idle one, or a new one connecting). */
const POOL_CONNECT_TIMEOUT_MS = 10_000;

export type DatabaseKind = "postgres" | "embedded";

/** Every handle on the database, all over one pg pool. */
export interface Database {
  kind: DatabaseKind;
  pool: pg.Pool;
  dataSource: DataSource;
  checkpointer: RunStampingCheckpointer;
  store: HangarStore;
  /** Queues runs (enqueueRuns), batched across the requests of this process. */
  runQueue: BatchedStatement<RunToEnqueue, EnqueueOutcome>;
  /** Records finished runs (settleRunOutcomes), batched across the runs of this process. */
  runOutcomes: BatchedStatement<RunOutcomeRecord, SettledRun>;
  /** Stores new assistants (insertAssistants; false: the id exists), batched across requests. */
  assistantInserts: BatchedStatement<Assistant, boolean>;
  /** Versions assistants (updateAssistants; null: no such assistant in scope), batched across requests. */
  assistantUpdates: BatchedStatement<AssistantUpdate, Assistant | null>;
  /** Stores new threads (insertThreads; false: the id exists), batched across requests. */
  threadInserts: BatchedStatement<Thread, boolean>;
  /** Reads assistants by id (null: none in scope), batched across requests. */
  assistantReads: BatchedStatement<AssistantRead, Assistant | null>;
  /** Whether a PostgreSQL backend (by pid, as NOTIFYs name their sender) is one of this pool's. */
  isOwnBackend(pid: number): boolean;
  /**
   * Tells other processes, shortly after, that something on `channel` changed; call it once the
   * change committed (db/change-announcer.ts). Nothing on the embedded database: no other process.
   */
  announceChange(channel: ChangeChannel): void;
  /** Sends the announcements still waiting (db/change-announcer.ts); done by close() too. */
  flushAnnouncements(): Promise<void>;
  /**
   * A new connection outside the pool (PostgreSQL only: the embedded database has exactly one
   * connection), for session state such as an advisory lock. The caller ends it.
   */
  connectOutsidePool(): Promise<pg.Client>;
  /**
   * Runs `work` (and all it starts) holding at most `max` pool connections at once, so that one
   * request cannot take the whole pool (db/pool-share.ts); waits end when `signal` aborts.
   */
  shareConnections<T>(max: number, signal: AbortSignal | undefined, work: () => T): T;
  /** The server's own secret for `purpose`, the same in every process on this database (db/sql/server-secret.ts). */
  serverSecret(purpose: string): Promise<Buffer>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** The embedded engine's shared_buffers (PostgreSQL's size syntax, e.g. "256MB"); ignored on PostgreSQL. */
  embeddedSharedBuffers?: string;
  /** Connections in the PostgreSQL pool (ignored for the embedded database, always 1). */
  poolSize?: number;
  /** The deployment's `store` settings (semantic index, TTLs). */
  store?: HangarStoreOptions;
  /** The deployment's encryption handlers for checkpoint data (langgraph.json `encryption.path`). */
  checkpointCipher?: BlobCipher | null;
}

export async function openDatabase(options: DatabaseOptions, log: Logger): Promise<Database> {
  // Only PostgreSQL has other processes' notifications to tell apart; the embedded database none.
  const ownBackends = backendPidTracker(log);
  const { pool, kind, closePool } = await openPool(options, ownBackends);
  pool.on("error", (error) => log.warn({ err: error }, "idle database connection failed"));
  const dataSource = createDataSource(pool);
  try {
    await dataSource.initialize();
  } catch (error) {
    await closePool();
    throw error;
  }
  const checkpointer = new RunStampingCheckpointer(pool, { cipher: options.checkpointCipher ?? null, log });
  const store = new HangarStore(pool, log, options.store);
  const secrets = new Map<string, Promise<Buffer>>();
  const announcer = kind === "postgres" ? new ChangeAnnouncer((channels) => notifyChannels(pool, channels), log) : null;
  log.info({ database: kind }, "database connected");
  return {
    kind,
    pool,
    dataSource,
    checkpointer,
    store,
    runQueue: new BatchedStatement((runs) => enqueueRuns(dataSource.manager, runs)),
    // Guarded by the lease (… WHERE lease_owner = $worker AND status = 'running'): a retry after a
    // lost connection records nothing twice. Enqueueing is not idempotent and is not retried.
    runOutcomes: new BatchedStatement((records) => {
      // Stamped as the round is sent (settleRunOutcomes): a retry writes the same time again.
      const now = new Date();
      return withRetry(() => settleRunOutcomes(dataSource.manager, records, now), { retryOn: "idempotent", maxElapsedMs: WORKER_WRITE_PATIENCE_MS });
    }),
    assistantInserts: new BatchedStatement((assistants) => insertAssistants(dataSource.manager, assistants), {
      distinctBy: (assistant) => assistant.assistantId,
    }),
    assistantUpdates: new BatchedStatement((updates) => updateAssistants(dataSource.manager, updates), {
      distinctBy: (update) => update.assistantId,
    }),
    threadInserts: new BatchedStatement((threads) => insertThreads(dataSource.manager, threads), { distinctBy: (thread) => thread.threadId }),
    assistantReads: new BatchedStatement((reads) => selectAssistantsOfReads(dataSource.manager, reads)),
    isOwnBackend: (pid) => ownBackends.pids.has(pid),
    announceChange: (channel) => announcer?.announce(channel),
    flushAnnouncements: async () => announcer?.flush(),
    shareConnections: withPoolShare,
    serverSecret(purpose) {
      let secret = secrets.get(purpose);
      if (!secret) {
        secret = serverSecret(dataSource.manager, purpose);
        secrets.set(purpose, secret);
        // A failed read (database unavailable) is asked again next time, not remembered.
        secret.catch(() => secrets.delete(purpose));
      }
      return secret;
    },
    async connectOutsidePool() {
      if (!options.databaseUrl) throw new Error("The embedded database has no connection outside its pool");
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      return client;
    },
    async close() {
      // A change committed just before shutdown still reaches the other processes.
      await announcer?.flush();
      // TypeORM ends the shared pool when it is destroyed; the embedded engine closes after it.
      await dataSource.destroy();
      if (kind === "embedded") await closePool();
    },
  };
}

/**
 * The backend pids of the pool's connections, kept current as connections come and go, so that a
 * NOTIFY this process sent can be told from another process's. A new connection asks for its pid
 * in pg-pool's `onConnect` hook, before the pool hands it out (so before it can send a NOTIFY,
 * and without a second statement queued on a busy client, which pg deprecates).
 */
function backendPidTracker(log: Logger) {
  const pids = new Set<number>();
  const pidOf = new WeakMap<pg.ClientBase, number>();
  return {
    pids,
    async onConnect(client: pg.ClientBase): Promise<void> {
      try {
        const { rows } = await runStatement<{ pid: number }>(client, "SELECT pg_backend_pid() AS pid");
        if (!rows[0]) return;
        pidOf.set(client, rows[0].pid);
        pids.add(rows[0].pid);
      } catch (error) {
        // The connection failed at once; its own statements report that.
        log.debug({ err: error }, "could not read a connection's backend pid");
      }
    },
    forget(client: pg.ClientBase): void {
      const pid = pidOf.get(client);
      if (pid !== undefined) pids.delete(pid);
    },
  };
}

async function openPool(
  options: DatabaseOptions,
  ownBackends: ReturnType<typeof backendPidTracker>,
): Promise<{ pool: pg.Pool; kind: DatabaseKind; closePool: () => Promise<void> }> {
  if (options.databaseUrl) {
    const pool = new SharedPool({
      onConnect: (client) => ownBackends.onConnect(client),
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      // Without a bound, a request waits forever for a connection while PostgreSQL is out of
      // reach; with it, it fails as unavailable (db/connection-loss.ts) and the client retries.
      connectionTimeoutMillis: POOL_CONNECT_TIMEOUT_MS,
      // A peer that vanished without closing the socket is noticed by TCP keepalive, not never.
      keepAlive: true,
    });
    pool.on("remove", (client) => ownBackends.forget(client));
    return { pool, kind: "postgres", closePool: () => pool.end() };
  }
  const embedded = await openEmbeddedPool(options.dataDir, { sharedBuffers: options.embeddedSharedBuffers });
  return { pool: embedded.pool, kind: "embedded", closePool: () => embedded.close() };
}
