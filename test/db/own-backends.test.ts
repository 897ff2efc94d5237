import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/database.js";
import { createLogger } from "../../src/logger.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";

let database: TestDatabase;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDatabase({ databaseUrl: database.url, dataDir: "", poolSize: 2 }, createLogger("silent"));
});

afterAll(async () => {
  await db?.close();
  await database?.retire();
});

it("knows the backend pids of its pool's connections, and only those (NOTIFYs it sent itself are skipped)", async () => {
  const pids = new Set<number>();
  const clients = await Promise.all([db.pool.connect(), db.pool.connect()]);
  for (const client of clients) pids.add((await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid);
  for (const client of clients) client.release();
  expect(pids.size).toBe(2);
  for (const pid of pids) expect(db.isOwnBackend(pid)).toBe(true);

  const outside = await db.connectOutsidePool();
  const { rows } = await outside.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  await outside.end();
  expect(db.isOwnBackend(rows[0]!.pid)).toBe(false);
});
