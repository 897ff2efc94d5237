import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/** Pending runs that are due (not delayed by after_seconds), and how long the oldest has waited. */
export async function runQueueStats(manager: EntityManager, now: Date): Promise<{ depth: number; oldestWaitSeconds: number }> {
  // runs_pending_idx (run_after, created_at) WHERE status = 'pending' answers both.
  const { rows } = await runStatement<{ depth: string; oldest: Date | null }>(
    manager,
    `SELECT count(*) AS depth, min(run_after) AS oldest FROM runs WHERE status = 'pending' AND run_after <= $1`,
    [now],
  );
  const oldest = rows[0]?.oldest ?? null;
  return {
    depth: Number(rows[0]?.depth ?? 0),
    oldestWaitSeconds: oldest === null ? 0 : Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 1000),
  };
}
