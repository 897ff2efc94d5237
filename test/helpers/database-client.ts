import pg from "pg";
import type { QueryRunner } from "typeorm";
import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, type TestDatabase } from "./test-database.js";

/**
 * A migrated test database of the calling file's own and one plain pg client on it, opened
 * before the file's tests and closed after them (call at the top level of a test file). The
 * getters throw if read before the file's beforeAll ran.
 */
export function useDatabaseClient(): { readonly database: TestDatabase; readonly client: pg.Client } {
  let database: TestDatabase | undefined;
  let client: pg.Client | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await database?.retire();
  });
  return {
    get database() {
      if (!database) throw new Error("useDatabaseClient: the database is opened in beforeAll");
      return database;
    },
    get client() {
      if (!client) throw new Error("useDatabaseClient: the client is opened in beforeAll");
      return client;
    },
  };
}

/** A QueryRunner that sends a migration's statements over `client` (for testing a migration alone). */
export function queryRunnerOn(client: () => pg.Client): QueryRunner {
  return { query: async (sql: string, params?: unknown[]) => (await client().query(sql, params)).rows } as unknown as QueryRunner;
}
