import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/**
 * Puts running runs whose lease expired (their worker crashed or hung) back in the queue. The next
 * claim executes them again with attempt + 1, resuming from their last checkpoint. Locks only the
 * expired rows, skipping any another process is requeueing at the same moment. Expiry is judged
 * on the database's clock (`now()`), the clock the lease was written with: a process whose own
 * clock runs ahead must not requeue a run another process still holds. `now` is only the
 * `updated_at` stamp.
 */
export async function requeueExpiredRuns(manager: EntityManager, now: Date): Promise<string[]> {
  const { rows } = await runStatement<{ run_id: string }>(
    manager,
    `UPDATE runs SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL, updated_at = $1
     WHERE run_id IN (
       SELECT run_id FROM runs WHERE status = 'running' AND lease_expires_at < now() FOR UPDATE SKIP LOCKED
     )
     RETURNING run_id`,
    [now],
  );
  return rows.map((row) => row.run_id);
}
