import type { EntityManager } from "typeorm";
import type { Run } from "../../domain/run.js";
import { RUN_COLUMNS, runFromRow, type RunRow } from "./run-rows.js";
import { runStatement } from "../run-statement.js";

/**
 * Runs by id, in no particular order (callers key them). With a `threadScope` (the caller's
 * authorization, services/access-scope.ts) only runs of threads whose metadata contains it.
 */
export async function selectRuns(
  manager: EntityManager,
  runIds: string[],
  threadScope: Record<string, unknown> = {},
): Promise<Run[]> {
  const { rows } =
    Object.keys(threadScope).length === 0
      ? await runStatement<RunRow>(manager, `SELECT ${RUN_COLUMNS} FROM runs WHERE run_id = ANY($1::uuid[])`, [runIds])
      : await runStatement<RunRow>(
          manager,
          `SELECT ${RUN_COLUMNS} FROM runs WHERE run_id = ANY($1::uuid[])
             AND EXISTS (SELECT 1 FROM threads t WHERE t.thread_id = runs.thread_id AND t.metadata @> CAST($2 AS jsonb))`,
          [runIds, JSON.stringify(threadScope)],
        );
  return rows.map(runFromRow);
}
