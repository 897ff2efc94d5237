import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../src/db/migration-list.js";
import { adminUrl, databaseUrlFor } from "../helpers/postgres-urls.js";
import { CLI_CWD, cliArgs } from "../helpers/cli-process.js";

const TRIALS = 10;

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

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

describe("migrating from two processes at once", () => {
  it(`both processes succeed on a fresh database (${TRIALS} trials)`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      // Empty, not cloned from the migrated template: every migration and setup step has to run.
      const name = `hangar_race_${randomBytes(6).toString("hex")}`;
      await admin((client) => client.query(`CREATE DATABASE ${name}`));
      try {
        const url = databaseUrlFor(name);
        const results = await Promise.all([migrate(url), migrate(url)]);
        for (const result of results) expect({ trial, ...result }).toEqual({ trial, code: 0, output: "" });
        expect(await countAppliedMigrations(url)).toBe(MIGRATIONS.length);
      } finally {
        await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      }
    }
  }, 600_000);
});
