import pg from "pg";
import type { TestDatabase } from "./test-database.js";

/** One statement on a test database over its own connection, as another process would run it. */
export async function sql<Row extends pg.QueryResultRow = pg.QueryResultRow>(
  database: TestDatabase,
  text: string,
  params: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query<Row>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Makes crons due now without waiting for their slot: the real scheduler then claims and fires
 * them (the crons trigger's NOTIFY wakes it). `agoSeconds` back-dates the slot, e.g. to stand for
 * slots missed while no scheduler ran.
 */
export async function makeCronsDue(database: TestDatabase, cronIds: string[], agoSeconds = 1): Promise<void> {
  await sql(database, `UPDATE crons SET next_run_date = now() - make_interval(secs => $2) WHERE cron_id = ANY($1::uuid[])`, [
    cronIds,
    agoSeconds,
  ]);
}

/** Runs each cron queued, by cron id. */
export async function runsPerCron(database: TestDatabase, cronIds: string[]): Promise<Map<string, number>> {
  const rows = await sql<{ cron_id: string; runs: number }>(
    database,
    `SELECT cron_id, count(*)::int AS runs FROM runs WHERE cron_id = ANY($1::uuid[]) GROUP BY cron_id`,
    [cronIds],
  );
  return new Map(cronIds.map((id) => [id, rows.find((row) => row.cron_id === id)?.runs ?? 0]));
}

/** Rows per table: a refused request must leave every count as it was. Table names are the test's own constants. */
export async function countRows(database: TestDatabase, tables: readonly string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = Number((await sql<{ n: string }>(database, `SELECT count(*) AS n FROM ${table}`))[0]!.n);
  return counts;
}
