import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/**
 * Hands runs back to the queue at shutdown (status pending, lease cleared) so another process, or
 * this one after a restart, resumes them from their last checkpoint. Only runs this worker holds.
 */
export async function releaseRuns(
  manager: EntityManager,
  release: { workerId: string; runIds: string[]; now: Date },
): Promise<number> {
  const result = await runStatement(
    manager,
    `UPDATE runs SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL, updated_at = $3
     WHERE run_id = ANY($1::uuid[]) AND lease_owner = $2 AND status = 'running'`,
    [release.runIds, release.workerId, release.now],
  );
  return result.affected;
}
