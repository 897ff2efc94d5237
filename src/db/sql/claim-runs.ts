import type { EntityManager } from "typeorm";
import { preparedStatement } from "../prepared-statement.js";
import type { Run } from "../../domain/run.js";
import { RUN_COLUMNS, runFromRow, type RunRow } from "./run-rows.js";
import { runStatement } from "../run-statement.js";

// Candidates are read in one ordered scan with no per-candidate query over other pending runs:
// a run's older due pending runs on its thread come before it in the same order and pass the
// same filters, so within any prefix of that order the first run of each thread is that thread's
// oldest. On a runs table of mostly finished runs the planner expects about one pending run and
// picks any index for a per-candidate "older run on this thread?" check; in a burst of 1,000 runs
// it picked a scan of all pending runs for each candidate (437,000 buffers, 120 ms per claim).
// The busy check stays a correlated subquery (OFFSET 0 keeps PostgreSQL from turning it into a
// join): one probe of runs_one_running_per_thread per candidate. The prefix is a few times the
// limit so that threads with several queued runs still fill a claim; when the prefix was full and
// the claim still answered fewer runs than asked (prefix_full), the worker claims again
// (run-worker.ts), so a prefix taken up by one thread's runs costs one more round trip.
export const CLAIM_RUNS = preparedStatement(
  "claim_runs",
  `WITH due AS (
     SELECT r.run_id, r.thread_id, r.created_at FROM runs r
     WHERE r.status = 'pending' AND r.run_after <= $3
       AND NOT EXISTS (SELECT 1 FROM runs busy WHERE busy.thread_id = r.thread_id AND busy.status = 'running' OFFSET 0)
     ORDER BY r.created_at, r.run_id
     LIMIT $2 * 4
   ), oldest_per_thread AS (
     SELECT DISTINCT ON (due.thread_id) due.run_id, due.created_at FROM due
     ORDER BY due.thread_id, due.created_at, due.run_id
   ), locked AS (
     SELECT runs.run_id FROM runs
     WHERE runs.run_id IN (SELECT run_id FROM oldest_per_thread ORDER BY created_at, run_id LIMIT $2)
       AND runs.status = 'pending'
     FOR UPDATE SKIP LOCKED
   )
   UPDATE runs SET status = 'running', attempt = attempt + 1, lease_owner = $1,
     lease_expires_at = now() + make_interval(secs => $4::double precision / 1000), updated_at = $3
   FROM locked WHERE runs.run_id = locked.run_id
   RETURNING ${RUN_COLUMNS.replace(/(\w+)/g, "runs.$1")},
     NOT EXISTS (SELECT 1 FROM checkpoints c WHERE c.thread_id = runs.thread_id::text) AS thread_is_empty,
     (SELECT count(*) FROM due) = $2 * 4 AS prefix_full`,
);

/**
 * Claims up to `limit` due pending runs for one worker and marks them running under a lease.
 *
 * Only the oldest due pending run of each thread is a candidate, and only when no run of that
 * thread is running: runs on one thread execute in creation order (enqueue; runs created in the
 * same millisecond go in run id order). Candidates are read oldest first through the partial
 * index runs_pending_claim_order_idx and the scan stops after a few times `limit`, so a claim
 * costs about the same with 10 or 10,000 runs queued
 * (migrations/1764450000000-index-pending-runs-in-claim-order.ts). It may answer fewer runs than
 * `limit` while more are claimable, when the prefix it read was full and held several runs of one
 * thread: `prefixFull` says so, and a caller that wants more claims again.
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
): Promise<ClaimedRuns> {
  const { rows } = await runStatement<RunRow & { thread_is_empty: boolean; prefix_full: boolean }>(manager, CLAIM_RUNS, [
    claim.workerId,
    claim.limit,
    claim.now,
    claim.leaseMs,
  ]);
  return {
    runs: rows.map((row) => ({ run: runFromRow(row), threadIsEmpty: row.thread_is_empty })),
    prefixFull: rows[0]?.prefix_full ?? false,
  };
}

export interface ClaimedRuns {
  runs: Array<{ run: Run; threadIsEmpty: boolean }>;
  /** The claim read as many queued runs as it reads at most: claimable ones may lie beyond them. */
  prefixFull: boolean;
}
