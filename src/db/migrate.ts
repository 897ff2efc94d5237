import type { HangarConfig } from "../config.js";
import type { Logger } from "../logger.js";
import { openDatabase, type Database } from "./database.js";
import { MIGRATIONS } from "./migration-list.js";
import { runStatement } from "./run-statement.js";

/**
 * The advisory lock key every Hangar process takes around migrating (bigint; the ASCII bytes of
 * "hangar" so it is recognisable in pg_locks and unlikely to collide with an application's own).
 */
const MIGRATION_LOCK_KEY = "114784820031858";

/**
 * Applies Hangar's migrations (they create the checkpointer's tables too), then the store's
 * start-up step (the optional vector index). Refuses a database that a newer Hangar has
 * migrated: running old code on a newer schema can lose data.
 *
 * All of it runs under one PostgreSQL advisory lock: processes started together on a fresh
 * database (an API and a worker under docker compose or Kubernetes) would otherwise both create
 * the same types and tables, and one dies on a duplicate key in pg_type or in a migrations table.
 * The second process waits for the lock, then finds everything applied and goes on.
 */
export async function migrateDatabase(db: Database, log: Logger): Promise<string[]> {
  const names = await withMigrationLock(db, log, async () => {
    await refuseNewerSchema(db);
    const applied = await db.dataSource.runMigrations({ transaction: "each" });
    await db.store.setup();
    return applied.map((migration) => migration.name);
  });
  log.info({ applied: names }, names.length ? "database migrated" : "database schema up to date");
  return names;
}

/**
 * `hangar migrate`: apply migrations and exit. It lives here rather than in main.ts so that the
 * CLI's migrate command loads the database layer only, not the API and the run engine: an init
 * container or a deploy step migrates in half the start-up time.
 */
export async function migrateOnly(config: Readonly<Pick<HangarConfig, "databaseUrl" | "dataDir">>, log: Logger): Promise<string[]> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }, log);
  try {
    return await migrateDatabase(db, log);
  } finally {
    await db.close();
  }
}

/**
 * Holds a session-level advisory lock on a connection of its own while fn runs on the pool (a pool
 * connection would be unavailable to fn, and the pool may have only one). If this process dies,
 * PostgreSQL ends the session and so releases the lock. The embedded database needs no lock: its
 * directory lock already admits a single process.
 */
async function withMigrationLock<T>(db: Database, log: Logger, fn: () => Promise<T>): Promise<T> {
  if (db.kind === "embedded") return fn();
  const lockClient = await db.connectOutsidePool();
  // An error on this idle connection (the server going away) must not crash the process; the
  // migration's own statements report it.
  lockClient.on("error", (error) => log.warn({ err: error }, "migration lock connection failed"));
  try {
    const [{ locked }] = (await runStatement<{ locked: boolean }>(lockClient, "SELECT pg_try_advisory_lock($1) AS locked", [MIGRATION_LOCK_KEY])).rows;
    if (!locked) {
      log.info("another process is migrating the database: waiting for it");
      await runStatement(lockClient, "SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    }
    return await fn();
  } finally {
    // Ending the session releases its advisory locks (also when the connection is already gone).
    await lockClient.end();
  }
}

async function refuseNewerSchema(db: Database): Promise<void> {
  const tableName = db.dataSource.options.migrationsTableName ?? "migrations";
  const [{ exists }] = (await runStatement<{ exists: boolean }>(db.pool, "SELECT to_regclass($1) IS NOT NULL AS exists", [tableName])).rows;
  if (!exists) return;
  const known = new Set(MIGRATIONS.map((migration) => migration.name));
  const { rows } = await runStatement<{ name: string }>(db.pool, `SELECT name FROM ${tableName} ORDER BY id`);
  const unknown = rows.map((row) => row.name).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new Error(
      `The database was migrated by a newer version of Hangar (unknown migrations: ${unknown.join(", ")}). ` +
        `Upgrade Hangar; refusing to start on a newer schema.`,
    );
  }
}
