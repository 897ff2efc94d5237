import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/**
 * Rollback's first statement: deletes a running run only while this worker still holds its lease
 * (`lease_owner = me`, as every write of an attempt is guarded). Returns whether it did. The row
 * lock this takes keeps another process from claiming or requeueing the run until the caller's
 * transaction (which then deletes the run's checkpoints) commits. A worker that lost its lease
 * deletes nothing: the run, and the checkpoints a newer attempt may have written, stay.
 */
export async function deleteHeldRun(manager: EntityManager, held: { runId: string; workerId: string }): Promise<boolean> {
  const result = await runStatement(
    manager,
    `DELETE FROM runs WHERE run_id = $1 AND lease_owner = $2 AND status = 'running' RETURNING run_id`,
    [held.runId, held.workerId],
  );
  return result.rows.length > 0;
}
