import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { migrateOnly } from "../../src/db/migrate.js";
import { startHangar } from "../../src/main.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { FIXTURE_DEPLOYMENT } from "../helpers/test-server.js";

const log = createLogger("silent");
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.retire();
});

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe("migrations", () => {
  it("creates Hangar's tables and the LangGraph checkpoint tables and the store tables in one database", async () => {
    const tables = await query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    );
    const names = tables.map((row) => row.tablename);
    for (const expected of ["assistants", "assistant_versions", "threads", "hangar_migrations", "checkpoints", "checkpoint_writes", "store_items", "store_vectors"]) {
      expect(names).toContain(expected);
    }
  });

  it("is idempotent: migrating an up-to-date database applies nothing", async () => {
    const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: "silent" });
    expect(await migrateOnly(config, log)).toEqual([]);
  });

  it("refuses to start on a database migrated by a newer Hangar", async () => {
    await query("INSERT INTO hangar_migrations (timestamp, name) VALUES ($1, $2)", [
      9999999999999,
      "FromTheFuture9999999999999",
    ]);
    const config = loadConfig({ DATABASE_URL: database.url, PORT: "0", LOG_LEVEL: "silent" }, { configPath: FIXTURE_DEPLOYMENT });
    await expect(startHangar(config, log)).rejects.toThrow(/migrated by a newer version of Hangar.*FromTheFuture/);
    await query("DELETE FROM hangar_migrations WHERE name = $1", ["FromTheFuture9999999999999"]);
  });
});
