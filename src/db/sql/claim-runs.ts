import type { EntityManager } from "typeorm";
import { preparedStatement } from "../prepared-statement.js";
import type { Run } from "../../domain/run.js";
import { RUN_COLUMNS, runFromRow, type RunRow } from "./run-rows.js";
import { runStatement } from "../run-statement.js";

// The two checks are correlated subqueries kept as such by OFFSET 0 (PostgreSQL turns a plain
// NOT EXISTS into an anti-join): each is then one probe of a partial index by thread_id, whatever
// the table's statistics say. As anti-joins, on a runs table not yet analyzed (a new database,
// before autovacuum's first pass) the planner expected one pending run and compared every pending
// run with every other: 120 ms per claim with 1,000 queued, against 1 ms this way (and 0.05 ms
// once analyzed, when the scan stops at the limit).
export const CLAIM_RUNS = preparedStatement(
  "claim_runs",
  `WITH locked AS (
     SELECT r.run_id FROM runs r
     WHERE r.status = 'pending' AND r.run_after <= $3
       AND NOT EXISTS (SELECT 1 FROM runs busy WHERE busy.thread_id = r.thread_id AND busy.status = 'running' OFFSET 0)
       AND NOT EXISTS (
         SELECT 1 FROM runs older
         WHERE older.thread_id = r.thread_id AND older.status = 'pending' AND older.run_after <= $3
           AND (older.created_at, older.run_id) < (r.created_at, r.run_id)
         OFFSET 0)
     ORDER BY r.created_at, r.run_id
     LIMIT $2
     FOR UPDATE OF r SKIP LOCKED
   )
   UPDATE runs SET status = 'running', attempt = attempt + 1, lease_owner = $1,
     lease_expires_at = now() + make_interval(secs => $4::double precision / 1000), updated_at = $3
   FROM locked WHERE runs.run_id = locked.run_id
   RETURNING ${RUN_COLUMNS.replace(/(\w+)/g, "runs.$1")},
     NOT EXISTS (SELECT 1 FROM checkpoints c WHERE c.thread_id = runs.thread_id::text) AS thread_is_empty`,
);

/**
 * Claims up to `limit` due pending runs for one worker and marks them running under a lease.
 *
 * Only the oldest due pending run of each thread is a candidate, and only when no run of that
 * thread is running: runs on one thread execute in creation order (enqueue; runs created in the
 * same millisecond go in run id order). Candidates are read oldest first through the partial
 * index runs_pending_claim_order_idx and the scan stops at `limit`, so a claim costs the same
 * with 10 or 10,000 runs queued (migrations/1764450000000-index-pending-runs-in-claim-order.ts).
 * Candidate rows are locked with SKIP LOCKED so concurrent claimers on other processes take
 * disjoint sets without waiting.
 * If two claimers still pick different runs of the same thread, the partial unique index
 * runs_one_running_per_thread rejects the second (23505) and the caller simply claims again.
 *
 * The lease's expiry is on the database's clock (`now()`), like every lease comparison
 * (renew-run-leases.ts, requeue-expired-runs.ts): hosts whose clocks drift apart must not take
 * each other's live runs. `run_after` and `updated_at` stay on the creating process's clock.
 *
 * Each claimed run says whether its thread has no checkpoint yet: then the run's opening
 * checkpoint read is known to find nothing (see db/run-checkpoint-memory.ts).
 */
export async function claimRuns(
  manager: EntityManager,
  claim: { workerId: string; limit: number; leaseMs: number; now: Date },
): Promise<Array<{ run: Run; threadIsEmpty: boolean }>> {
  const { rows } = await runStatement<RunRow & { thread_is_empty: boolean }>(manager, CLAIM_RUNS, [
    claim.workerId,
    claim.limit,
    claim.now,
    claim.leaseMs,
  ]);
  return rows.map((row) => ({ run: runFromRow(row), threadIsEmpty: row.thread_is_empty }));
}
