import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";
import type { CancelAction, RunStatus } from "../../domain/run.js";

/**
 * Asks for runs to stop. A pending run never started, so it ends here as `interrupted`; a running
 * one keeps running until the worker holding it sees cancel_action (the runs trigger NOTIFYs
 * hangar_run_cancel) and aborts it. Returns each affected run with its status after the update.
 */
export async function requestRunCancel(
  manager: EntityManager,
  request: { runIds: string[]; action: CancelAction; now: Date },
): Promise<Array<{ runId: string; threadId: string; status: RunStatus }>> {
  const result = await runStatement(manager, 
    `UPDATE runs SET cancel_action = $2, updated_at = $3,
       status = CASE WHEN status = 'pending' THEN 'interrupted' ELSE status END
     WHERE run_id = ANY($1::uuid[]) AND status IN ('pending', 'running')
     RETURNING run_id, thread_id, status`,
    [request.runIds, request.action, request.now],
  );
  return (result.rows as Array<{ run_id: string; thread_id: string; status: RunStatus }>).map((row) => ({
    runId: row.run_id,
    threadId: row.thread_id,
    status: row.status,
  }));
}
