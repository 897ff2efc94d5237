import type { EntityManager } from "typeorm";
import type { Run, RunStatus } from "../../domain/run.js";
import { RUN_COLUMNS, runFromRow, type RunRow } from "./run-rows.js";
import { runStatement } from "../run-statement.js";

/**
 * The newest `perThread` runs of each of many threads (optionally of one status), newest first,
 * each with its thread's total: one statement for a whole page of threads (GraphQL Thread.runs),
 * where a LIMIT per thread would cost one query each. Both window functions partition the rows
 * that runs_thread_idx (thread_id, created_at DESC) finds. Plain reads; locks nothing.
 */
export async function listRunsOfThreads(
  manager: EntityManager,
  query: { threadIds: string[]; status: RunStatus | null; perThread: number },
): Promise<Array<{ run: Run; threadTotal: number }>> {
  const { rows } = await runStatement<RunRow & { thread_total: number }>(
    manager,
    `SELECT ${RUN_COLUMNS}, thread_total FROM (
       SELECT ${RUN_COLUMNS},
         row_number() OVER (PARTITION BY thread_id ORDER BY created_at DESC, run_id DESC) AS position,
         count(*) OVER (PARTITION BY thread_id)::int AS thread_total
       FROM runs
       WHERE thread_id = ANY($1::uuid[]) AND ($2::text IS NULL OR status = $2)
     ) ranked
     WHERE position <= $3
     ORDER BY thread_id, created_at DESC, run_id DESC`,
    [query.threadIds, query.status, query.perThread],
  );
  return rows.map((row) => ({ run: runFromRow(row), threadTotal: row.thread_total }));
}
