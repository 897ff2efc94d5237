import type { EntityManager } from "typeorm";

/** When the earliest delayed (after_seconds) pending run becomes due, for the worker's timer. */
export async function nextRunDueAt(manager: EntityManager, now: Date): Promise<Date | null> {
  const rows: Array<{ due: Date | null }> = await manager.query(
    `SELECT min(run_after) AS due FROM runs WHERE status = 'pending' AND run_after > $1`,
    [now],
  );
  return rows[0]?.due ?? null;
}
