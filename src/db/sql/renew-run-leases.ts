import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";
import type { CancelAction } from "../../domain/run.js";

/**
 * Extends this worker's leases. Returns the runs it still holds, with any cancellation asked for
 * meanwhile: a run missing from the result was taken from this worker (its lease expired) and
 * must be abandoned. The new expiry is on the database's clock, as every lease time is.
 */
export async function renewRunLeases(
  manager: EntityManager,
  renewal: { workerId: string; runIds: string[]; leaseMs: number },
): Promise<Array<{ runId: string; cancelAction: CancelAction | null }>> {
  const { rows } = await runStatement<{ run_id: string; cancel_action: CancelAction | null }>(
    manager,
    `UPDATE runs SET lease_expires_at = now() + make_interval(secs => $3::double precision / 1000)
     WHERE run_id = ANY($1::uuid[]) AND lease_owner = $2 AND status = 'running'
     RETURNING run_id, cancel_action`,
    [renewal.runIds, renewal.workerId, renewal.leaseMs],
  );
  return rows.map((row) => ({
    runId: row.run_id,
    cancelAction: row.cancel_action,
  }));
}
