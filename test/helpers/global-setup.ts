import pg from "pg";
import { buildConsole, buildServer } from "../../scripts/build-steps.js";
import { openDatabase } from "../../src/db/database.js";
import { migrateDatabase } from "../../src/db/migrate.js";
import { createLogger } from "../../src/logger.js";
import { adminUrl, databaseUrlFor, retiredDatabasePrefix, templateDatabase, testDatabasePrefix } from "./postgres-urls.js";

/**
 * Runs once per `vitest run`: builds what changed (as `npm run build`: the tests that start the
 * CLI as an OS process run dist/src/cli.js, and the browser tests load dist/web; when nothing
 * changed this only compares modification times), and a migrated template database that every
 * test file clones (CREATE DATABASE … TEMPLATE), so files get their own database in milliseconds.
 */
export default async function setup(): Promise<() => Promise<void>> {
  buildServer({ allowTypeErrors: true });
  await buildConsole({ log: () => undefined });
  process.env.HANGAR_TEST_TEMPLATE = `hangar_test_template_${process.pid}`;
  const template = templateDatabase();
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${template}`);
  } finally {
    await admin.end();
  }
  const log = createLogger("silent");
  const db = await openDatabase({ databaseUrl: databaseUrlFor(template), dataDir: "", poolSize: 1 }, log);
  try {
    await migrateDatabase(db, log);
  } finally {
    await db.close();
  }
  return async () => {
    const cleanup = new pg.Client({ connectionString: adminUrl() });
    await cleanup.connect();
    try {
      await cleanup.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => undefined);
      // Every file retires the databases it made (startTestServer's close, or its own retire):
      // they are dropped here, together. Any not retired is a leak: dropped too, and the run fails naming them.
      const named = async (prefix: string) =>
        (await cleanup.query<{ datname: string }>("SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname", [prefix])).rows.map(
          (row) => row.datname,
        );
      const leaked = await named(testDatabasePrefix());
      await dropDatabases([...(await named(retiredDatabasePrefix())), ...leaked]);
      if (leaked.length > 0) throw new Error(`test files left ${leaked.length} database(s) behind: ${leaked.join(", ")}`);
    } finally {
      await cleanup.end();
    }
  };
}

/**
 * Drops databases DROP_CONCURRENCY at a time, each on a connection of its own: every DROP
 * DATABASE waits for a checkpoint, and drops waiting together share one (one at a time, the
 * checkpoints would add up to minutes over a full run's ~250 databases).
 */
async function dropDatabases(names: string[]): Promise<void> {
  const DROP_CONCURRENCY = 16;
  const queue = [...names];
  const dropper = async () => {
    const client = new pg.Client({ connectionString: adminUrl() });
    await client.connect();
    try {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
  await Promise.all(Array.from({ length: Math.min(DROP_CONCURRENCY, names.length) }, dropper));
}
