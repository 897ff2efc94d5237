/**
 * Writes test/db/schema.sql: the schema the migrations produce, as a normalized
 * `pg_dump --schema-only`, so database changes show up in review the way schema.graphql does.
 * test/db/schema-dump.test.ts fails when the committed file is stale.
 *
 *   npm run db:schema        (DATABASE_URL names the server; a scratch database is created on it)
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { openDatabase } from "../src/db/database.js";
import { migrateDatabase } from "../src/db/migrate.js";
import { createLogger } from "../src/logger.js";
import { dumpDatabaseSchema } from "../test/helpers/dump-schema.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const target = path.resolve(here, "../test/db/schema.sql");
const serverUrl = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
const scratch = `hangar_schema_dump_${process.pid}`;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: new URL("/postgres", serverUrl).toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

await admin(`CREATE DATABASE ${scratch}`);
try {
  const url = new URL(`/${scratch}`, serverUrl).toString();
  const log = createLogger("silent");
  const db = await openDatabase({ databaseUrl: url, dataDir: "", poolSize: 1 }, log);
  try {
    await migrateDatabase(db, log);
  } finally {
    await db.close();
  }
  fs.writeFileSync(target, await dumpDatabaseSchema(url));
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
} finally {
  await admin(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
}
