import { randomBytes } from "node:crypto";
import pg from "pg";
import { adminUrl, databaseUrlFor, retiredDatabasePrefix, templateDatabase, testDatabasePrefix } from "./postgres-urls.js";

export interface TestDatabase {
  url: string;
  name: string;
  /**
   * Ends the database's sessions and renames it for the test run's teardown to drop
   * (global-setup.ts). Dropping it here would cost the file 1-6 s: every DROP DATABASE waits for
   * a checkpoint (2-4 s each at a load average of 20), while the teardown's concurrent drops
   * share checkpoints (20 at once took 5 s). The name is free again, nothing can connect to the
   * database meanwhile, and a file that does not retire what it made still fails (leak-check.ts).
   */
  retire(): Promise<void>;
}

/** Databases created and not retired yet: a test file must retire every one (test/helpers/leak-check.ts). */
const liveDatabases = new Set<TestDatabase>();

/** The databases still there, by name; retires them (so the next file starts clean). */
export async function retireLeakedTestDatabases(): Promise<string[]> {
  const leaked = [...liveDatabases];
  await Promise.allSettled(leaked.map((database) => database.retire()));
  return leaked.map((database) => `the database ${database.name}`);
}

/**
 * A fresh database of its own: migrated, cloned from the template built in global-setup.ts, or
 * `empty` (no migration applied, for tests of migrating itself).
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const suffix = randomBytes(6).toString("hex");
  const name = `${testDatabasePrefix()}${suffix}`;
  await withAdmin((admin) => admin.query(options.empty ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${templateDatabase()}`));
  let retiring: Promise<void> | null = null;
  const database: TestDatabase = {
    url: databaseUrlFor(name),
    name,
    retire: () => {
      liveDatabases.delete(database);
      retiring ??= withAdmin(async (admin) => {
        // What DROP DATABASE … WITH (FORCE) did at once: no session outlives its file. A rename
        // fails while one is still ending (55006), and withAdmin tries again.
        await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name]);
        await admin.query(`ALTER DATABASE ${name} RENAME TO ${retiredDatabasePrefix()}${suffix}`);
      });
      return retiring;
    },
  };
  liveDatabases.add(database);
  return database;
}

async function withAdmin<T>(fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    // CREATE DATABASE … TEMPLATE fails while another session is copying the same template, and
    // ALTER DATABASE … RENAME while a terminated session has not ended yet.
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
