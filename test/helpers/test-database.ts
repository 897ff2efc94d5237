import { randomBytes } from "node:crypto";
import pg from "pg";
import { adminUrl, databaseUrlFor, templateDatabase, testDatabasePrefix } from "./postgres-urls.js";

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** Databases created and not dropped yet: a test file must drop every one (test/helpers/leak-check.ts). */
const liveDatabases = new Set<TestDatabase>();

/** The databases still there, by name; drops them (so the next file starts clean). */
export async function dropLeakedTestDatabases(): Promise<string[]> {
  const leaked = [...liveDatabases];
  await Promise.allSettled(leaked.map((database) => database.drop()));
  return leaked.map((database) => `the database ${database.name}`);
}

/** A fresh, migrated database cloned from the template built in global-setup.ts. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `${testDatabasePrefix()}${randomBytes(6).toString("hex")}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${templateDatabase()}`));
  const database: TestDatabase = {
    url: databaseUrlFor(name),
    name,
    drop: async () => {
      liveDatabases.delete(database);
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
  liveDatabases.add(database);
  return database;
}

async function withAdmin<T>(fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    // CREATE DATABASE … TEMPLATE fails while another session is copying the same template.
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn(admin);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== "55006" || attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
}
