import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/** Advisory lock key of the trace retention sweep (fixed: every Hangar process uses this one). */
const TRACE_SWEEP_LOCK = 7_406_315_028;

/**
 * Deletes up to `batchSize` trace runs that started before `cutoff`, oldest first (by the start
 * time index). Only the process holding the transaction-scoped advisory lock sweeps; the others
 * delete nothing. Rows another transaction is writing (a late patch) are skipped until next time.
 */
export async function deleteOldTraceRuns(manager: EntityManager, cutoff: Date, batchSize: number): Promise<number> {
  const { rows } = await runStatement<{ deleted: string }>(
    manager,
    `WITH sweeper AS (SELECT pg_try_advisory_xact_lock($1) AS is_sweeper),
     old AS (
       SELECT id FROM trace_runs
       WHERE (SELECT is_sweeper FROM sweeper) AND start_time < $2
       ORDER BY start_time, id
       LIMIT $3
       FOR UPDATE SKIP LOCKED
     ),
     deleted AS (DELETE FROM trace_runs t USING old WHERE t.id = old.id RETURNING 1)
     SELECT count(*)::text AS deleted FROM deleted`,
    [TRACE_SWEEP_LOCK, cutoff.toISOString(), batchSize],
  );
  return Number(rows[0]?.deleted ?? 0);
}
