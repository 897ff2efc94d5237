import pg from "pg";
import { buildConsole, buildServer } from "../../scripts/build-steps.js";
import { openDatabase } from "../../src/db/database.js";
import { migrateDatabase } from "../../src/db/migrate.js";
import { createLogger } from "../../src/logger.js";
import { adminUrl, databaseUrlFor, templateDatabase, testDatabasePrefix } from "./postgres-urls.js";

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
      // Every file drops the databases it made (startTestServer's close, or its own drop). Any
      // left is a leak: dropped here, and the run fails naming them.
      const leaked = await cleanup.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname",
        [testDatabasePrefix()],
      );
      for (const { datname } of leaked.rows) await cleanup.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      if (leaked.rows.length > 0) {
        throw new Error(`test files left ${leaked.rows.length} database(s) behind: ${leaked.rows.map((row) => row.datname).join(", ")}`);
      }
    } finally {
      await cleanup.end();
    }
  };
}
