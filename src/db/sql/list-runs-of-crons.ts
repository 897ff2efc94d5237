import type { EntityManager } from "typeorm";
import type { Run } from "../../domain/run.js";
import { RUN_COLUMNS, runFromRow, type RunRow } from "./run-rows.js";
import { runStatement } from "../run-statement.js";

/**
 * The newest `perCron` runs each of many crons queued, newest first, each with its cron's total:
 * one statement for a page of crons (GraphQL Cron.runs and Cron.lastRun), over runs_cron_idx.
 * Plain reads; locks nothing.
 */
export async function listRunsOfCrons(
  manager: EntityManager,
  query: { cronIds: string[]; perCron: number },
): Promise<Array<{ run: Run; cronId: string; cronTotal: number }>> {
  const { rows } = await runStatement<RunRow & { cron_id: string; cron_total: number }>(
    manager,
    `SELECT ${RUN_COLUMNS}, cron_id, cron_total FROM (
       SELECT ${RUN_COLUMNS}, cron_id,
         row_number() OVER (PARTITION BY cron_id ORDER BY created_at DESC, run_id DESC) AS position,
         count(*) OVER (PARTITION BY cron_id)::int AS cron_total
       FROM runs
       WHERE cron_id = ANY($1::uuid[])
     ) ranked
     WHERE position <= $2
     ORDER BY cron_id, created_at DESC, run_id DESC`,
    [query.cronIds, query.perCron],
  );
  return rows.map((row) => ({ run: runFromRow(row), cronId: row.cron_id, cronTotal: row.cron_total }));
}
