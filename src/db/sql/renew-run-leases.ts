import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";
import type { CancelAction } from "../../domain/run.js";

/**
 * Extends this worker's leases. Returns the runs it still holds, with any cancellation asked for
 * meanwhile: a run missing from the result was taken from this worker (its lease expired) and
 * must be abandoned. The new expiry is on the database's clock, as every lease time is.
 *
 * Locks the run rows in thread lock order (thread id, then run id), as a batched settle takes
 * them (settle-run-outcomes.ts): locked in run id order, as a plain `UPDATE … WHERE run_id =
 * ANY(…)` takes them, a renewal and a settle of the same runs each held a row the other wanted
 * ("deadlock detected", one of them failed; seen under load).
 */
export async function renewRunLeases(
  manager: EntityManager,
  renewal: { workerId: string; runIds: string[]; leaseMs: number },
): Promise<Array<{ runId: string; cancelAction: CancelAction | null }>> {
  const { rows } = await runStatement<{ run_id: string; cancel_action: CancelAction | null }>(
    manager,
    `WITH held AS (
       SELECT run_id FROM runs
       WHERE run_id = ANY($1::uuid[]) AND lease_owner = $2 AND status = 'running'
       ORDER BY thread_id, run_id
       FOR UPDATE
     )
     UPDATE runs SET lease_expires_at = now() + make_interval(secs => $3::double precision / 1000)
     FROM held WHERE runs.run_id = held.run_id
     RETURNING runs.run_id, runs.cancel_action`,
    [renewal.runIds, renewal.workerId, renewal.leaseMs],
  );
  return rows.map((row) => ({
    runId: row.run_id,
    cancelAction: row.cancel_action,
  }));
}
