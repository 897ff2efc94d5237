import { RunStampingCheckpointer } from "./checkpointer.js";
import pg from "pg";
import type { DataSource } from "typeorm";
import type { Logger } from "../logger.js";
import { createDataSource } from "./data-source.js";
import { openEmbeddedPool } from "./embedded-pool.js";
import { BatchedStatement } from "./batched-statement.js";
import { HangarStore, type HangarStoreOptions } from "./hangar-store.js";
import { enqueueRuns, type EnqueueOutcome, type RunToEnqueue } from "./sql/enqueue-runs.js";
import { settleRunOutcomes, type RunOutcomeRecord, type SettledRun } from "./sql/settle-run-outcomes.js";

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
  /** Whether a PostgreSQL backend (by pid, as NOTIFYs name their sender) is one of this pool's. */
  isOwnBackend(pid: number): boolean;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** Connections in the PostgreSQL pool (ignored for the embedded database, always 1). */
  poolSize?: number;
  /** The deployment's `store` settings (semantic index, TTLs). */
  store?: HangarStoreOptions;
}

export async function openDatabase(options: DatabaseOptions, log: Logger): Promise<Database> {
  const { pool, kind, closePool } = await openPool(options);
  pool.on("error", (error) => log.warn({ err: error }, "idle database connection failed"));
  const ownBackends = trackBackendPids(pool);
  const dataSource = createDataSource(pool);
  try {
    await dataSource.initialize();
  } catch (error) {
    await closePool();
    throw error;
  }
  const checkpointer = new RunStampingCheckpointer(pool);
  const store = new HangarStore(pool, log, options.store);
  log.info({ database: kind }, "database connected");
  return {
    kind,
    pool,
    dataSource,
    checkpointer,
    store,
    runQueue: new BatchedStatement((runs) => enqueueRuns(dataSource.manager, runs)),
    runOutcomes: new BatchedStatement((records) => settleRunOutcomes(dataSource.manager, records)),
    isOwnBackend: (pid) => ownBackends.has(pid),
    async close() {
      // TypeORM ends the shared pool when it is destroyed; the embedded engine closes after it.
      await dataSource.destroy();
      if (kind === "embedded") await closePool();
    },
  };
}

/** The backend pids of the pool's connections, kept current as connections come and go. */
function trackBackendPids(pool: pg.Pool): Set<number> {
  const pids = new Set<number>();
  const pidOf = (client: pg.PoolClient) => (client as pg.PoolClient & { processID?: number }).processID;
  pool.on("connect", (client) => {
    const pid = pidOf(client);
    if (pid) pids.add(pid);
  });
  pool.on("remove", (client) => {
    const pid = pidOf(client);
    if (pid) pids.delete(pid);
  });
  return pids;
}

async function openPool(
  options: DatabaseOptions,
): Promise<{ pool: pg.Pool; kind: DatabaseKind; closePool: () => Promise<void> }> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    return { pool, kind: "postgres", closePool: () => pool.end() };
  }
  const embedded = await openEmbeddedPool(options.dataDir);
  return { pool: embedded.pool, kind: "embedded", closePool: () => embedded.close() };
}
