import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { dumpDatabaseSchema } from "../helpers/dump-schema.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";

const committed = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "schema.sql");
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.retire();
});

it("test/db/schema.sql is what the migrations produce (run `npm run db:schema` after adding one)", async () => {
  const dumped = await dumpDatabaseSchema(database.url);
  expect(dumped).toBe(fs.readFileSync(committed, "utf8"));
});
