import type { EntityManager } from "typeorm";
import type { Run } from "../../domain/run.js";
import { RUN_COLUMNS, runFromRow, type RunRow } from "./run-rows.js";

/**
 * The thread's pending and running runs, locked until the caller's transaction ends. Run creation
 * holds the thread row lock first, so two creations on one thread apply multitask rules in turn.
 */
export async function lockActiveRuns(manager: EntityManager, threadId: string): Promise<Run[]> {
  const rows: RunRow[] = await manager.query(
    `SELECT ${RUN_COLUMNS} FROM runs WHERE thread_id = $1 AND status IN ('pending', 'running')
     ORDER BY created_at FOR UPDATE`,
    [threadId],
  );
  return rows.map(runFromRow);
}
