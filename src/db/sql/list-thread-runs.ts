import type { EntityManager } from "typeorm";
import type { Run, RunStatus } from "../../domain/run.js";
import { RUN_COLUMNS, runFromRow, type RunRow } from "./run-rows.js";
import { runStatement } from "../run-statement.js";

/** A thread's runs, newest first (LangGraph Platform's order), optionally of one status. */
export async function listThreadRuns(
  manager: EntityManager,
  query: { threadId: string; status?: RunStatus; limit: number; offset: number },
): Promise<Run[]> {
  const { rows } = await runStatement<RunRow>(
    manager,
    `SELECT ${RUN_COLUMNS} FROM runs WHERE thread_id = $1 AND ($2::text IS NULL OR status = $2)
     ORDER BY created_at DESC, run_id DESC LIMIT $3 OFFSET $4`,
    [query.threadId, query.status ?? null, query.limit, query.offset],
  );
  return rows.map(runFromRow);
}
