import type { Logger } from "../logger.js";
import type { Database } from "./database.js";
import { MIGRATIONS } from "./migration-list.js";

/**
 * Applies Hangar's migrations, then the LangGraph checkpointer's and store's own (they track
 * their versions in their own tables). Refuses a database that a newer Hangar has migrated:
 * running old code on a newer schema can lose data.
 */
export async function migrateDatabase(db: Database, log: Logger): Promise<string[]> {
  await refuseNewerSchema(db);
  const applied = await db.dataSource.runMigrations({ transaction: "each" });
  await db.checkpointer.setup();
  await db.store.setup();
  const names = applied.map((migration) => migration.name);
  log.info({ applied: names }, names.length ? "database migrated" : "database schema up to date");
  return names;
}

async function refuseNewerSchema(db: Database): Promise<void> {
  const tableName = db.dataSource.options.migrationsTableName ?? "migrations";
  const [{ exists }] = (await db.pool.query("SELECT to_regclass($1) IS NOT NULL AS exists", [tableName])).rows;
  if (!exists) return;
  const known = new Set(MIGRATIONS.map((migration) => migration.name));
  const { rows } = await db.pool.query<{ name: string }>(`SELECT name FROM ${tableName} ORDER BY id`);
  const unknown = rows.map((row) => row.name).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new Error(
      `The database was migrated by a newer version of Hangar (unknown migrations: ${unknown.join(", ")}). ` +
        `Upgrade Hangar; refusing to start on a newer schema.`,
    );
  }
}
