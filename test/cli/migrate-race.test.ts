import { spawn } from "node:child_process";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrateOnly } from "../../src/db/migrate.js";
import { MIGRATIONS } from "../../src/db/migration-list.js";
import { createLogger } from "../../src/logger.js";
import { CLI_CWD, cliArgs } from "../helpers/cli-process.js";
import { createTestDatabase } from "../helpers/test-database.js";

/**
 * Two `hangar migrate` processes per fresh database, through the CLI entry: the deployment case
 * (an API and a worker started together), a few times. Node start-up dominates each trial, so
 * the many trials that make a lost race likely run as two database connection pools in this
 * process instead: they race in PostgreSQL as two processes do (each pool and its lock
 * connection are sessions of their own), at a fraction of the cost. Without the migration lock,
 * the in-process trials fail (checked by hand: 'duplicate key value violates unique constraint
 * "pg_type_typname_nsp_index"' in most trials).
 */
const CLI_TRIALS = 2;
const IN_PROCESS_TRIALS = 8;

/** `hangar migrate` through the real CLI entry (built, as test/cli/serve.test.ts runs it). */
function migrate(databaseUrl: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, cliArgs(["migrate"]), {
      cwd: CLI_CWD,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "error" },
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => resolve({ code, output }));
  });
}

async function countAppliedMigrations(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query("SELECT name FROM hangar_migrations")).rowCount ?? 0;
  } finally {
    await client.end();
  }
}

/** A fresh database, empty rather than cloned from the migrated template: every migration and setup step has to run. */
async function withEmptyDatabase(fn: (url: string) => Promise<void>): Promise<void> {
  const database = await createTestDatabase({ empty: true });
  try {
    await fn(database.url);
  } finally {
    await database.retire();
  }
}

describe("migrating from two processes at once", () => {
  it(`both processes succeed on a fresh database (${CLI_TRIALS} trials)`, async () => {
    for (let trial = 0; trial < CLI_TRIALS; trial++) {
      await withEmptyDatabase(async (url) => {
        const results = await Promise.all([migrate(url), migrate(url)]);
        for (const result of results) expect({ trial, ...result }).toEqual({ trial, code: 0, output: "" });
        expect(await countAppliedMigrations(url)).toBe(MIGRATIONS.length);
      });
    }
  }, 300_000);

  it(`both succeed on a fresh database, raced from two connection pools (${IN_PROCESS_TRIALS} trials)`, async () => {
    const log = createLogger("silent");
    for (let trial = 0; trial < IN_PROCESS_TRIALS; trial++) {
      await withEmptyDatabase(async (url) => {
        const results = await Promise.allSettled([migrateOnly({ databaseUrl: url, dataDir: "" }, log), migrateOnly({ databaseUrl: url, dataDir: "" }, log)]);
        expect({ trial, failures: results.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : [])) }).toEqual({ trial, failures: [] });
        const applied = results.flatMap((result) => (result.status === "fulfilled" ? result.value : []));
        // One of the two applied every migration; the other, once it had the lock, found nothing to do.
        expect(applied).toHaveLength(MIGRATIONS.length);
        expect(await countAppliedMigrations(url)).toBe(MIGRATIONS.length);
      });
    }
  }, 300_000);
});
