import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/** Advisory lock key of the thread sweep (fixed: every Hangar process uses this one). */
const THREAD_SWEEP_LOCK = 7_406_315_002;

/**
 * Deletes up to `batchSize` threads whose TTL ran out since their last update, never one with a
 * pending or running run; runs and crons go by foreign key, checkpoints are the caller's (same
 * transaction). Only the process holding the transaction-scoped advisory lock sweeps; the
 * others delete nothing. Expired rows are locked FOR UPDATE SKIP LOCKED: a thread that a
 * request is enqueueing a run on right now (it holds a key-share lock) is left for next time.
 */
export async function deleteExpiredThreads(manager: EntityManager, batchSize: number): Promise<string[]> {
  const { rows } = await runStatement<{ thread_id: string }>(
    manager,
    `WITH sweeper AS (SELECT pg_try_advisory_xact_lock($1) AS is_sweeper),
     expired AS (
       SELECT t.thread_id FROM threads t
       WHERE (SELECT is_sweeper FROM sweeper)
         AND t.ttl_minutes IS NOT NULL
         AND t.updated_at + t.ttl_minutes * interval '1 minute' <= now()
         AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.thread_id = t.thread_id AND r.status IN ('pending', 'running'))
       ORDER BY t.updated_at
       LIMIT $2
       FOR UPDATE OF t SKIP LOCKED
     )
     DELETE FROM threads t USING expired WHERE t.thread_id = expired.thread_id
     RETURNING t.thread_id::text AS thread_id`,
    [THREAD_SWEEP_LOCK, batchSize],
  );
  return rows.map((row) => row.thread_id);
}
