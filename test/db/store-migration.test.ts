import { expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { migrateOnly } from "../../src/db/migrate.js";
import { useDatabaseClient } from "../helpers/database-client.js";

const opened = useDatabaseClient();

it("copies the items an earlier Hangar's PostgresStore wrote (table store) into store_items", async () => {
  // The database as the previous version left it: PostgresStore's table, no store_items yet.
  await opened.client.query("DROP TABLE store_vectors, store_items");
  await opened.client.query("DELETE FROM hangar_migrations WHERE name = 'CreateStoreItems1763760050000'");
  await opened.client.query(`
    CREATE TABLE store (
      namespace_path text NOT NULL, key text NOT NULL, value jsonb NOT NULL,
      created_at timestamptz DEFAULT CURRENT_TIMESTAMP, updated_at timestamptz DEFAULT CURRENT_TIMESTAMP,
      expires_at timestamptz, PRIMARY KEY (namespace_path, key))`);
  await opened.client.query(`
    INSERT INTO store (namespace_path, key, value, created_at, expires_at) VALUES
      ('users.ada', 'likes', '{"food": "pasta"}', '2025-01-02T03:04:05Z', NULL),
      ('notes', 'n1', '{"text": "hi"}', '2025-02-03T00:00:00Z', '2099-01-01T00:00:00Z')`);

  const applied = await migrateOnly(loadConfig({ DATABASE_URL: opened.database.url, LOG_LEVEL: "silent" }), createLogger("silent"));
  expect(applied).toEqual(["CreateStoreItems1763760050000"]);
  const { rows } = await opened.client.query(
    "SELECT namespace, key, value, created_at, expires_at FROM store_items ORDER BY key",
  );
  expect(rows).toEqual([
    { namespace: ["users", "ada"], key: "likes", value: { food: "pasta" }, created_at: new Date("2025-01-02T03:04:05Z"), expires_at: null },
    { namespace: ["notes"], key: "n1", value: { text: "hi" }, created_at: new Date("2025-02-03T00:00:00Z"), expires_at: new Date("2099-01-01T00:00:00Z") },
  ]);
});
