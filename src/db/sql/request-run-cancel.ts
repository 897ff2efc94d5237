import type { EntityManager } from "typeorm";
import type { CancelAction } from "../../domain/run.js";
import { runStatement } from "../run-statement.js";

/**
 * Asks for runs to stop, through hangar_cancel_runs (migrations/…-decide-multitask-on-enqueue),
 * the one cancel statement, which multitask interrupt / rollback also use. A pending run never
 * started, so it ends here (`ended`): `interrupted`, or deleted under rollback (it wrote
 * nothing). A running one keeps running until the worker holding it sees cancel_action (the runs
 * trigger NOTIFYs hangar_run_cancel) and aborts it. Finished runs are left alone; the answer
 * lists the runs it changed.
 */
export async function requestRunCancel(
  manager: EntityManager,
  request: { runIds: string[]; action: CancelAction; now: Date },
): Promise<Array<{ runId: string; threadId: string; ended: boolean }>> {
  const result = await runStatement<{ cancelled_run_id: string; cancelled_thread_id: string; ended: boolean }>(
    manager,
    `SELECT cancelled_run_id, cancelled_thread_id, ended FROM hangar_cancel_runs($1::uuid[], $2, $3)`,
    [request.runIds, request.action, request.now],
  );
  return result.rows.map((row) => ({ runId: row.cancelled_run_id, threadId: row.cancelled_thread_id, ended: row.ended }));
}
