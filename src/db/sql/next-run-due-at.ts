import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/** When the earliest delayed (after_seconds) pending run becomes due, for the worker's timer. */
export async function nextRunDueAt(manager: EntityManager, now: Date): Promise<Date | null> {
  const { rows } = await runStatement<{ due: Date | null }>(
    manager,
    `SELECT min(run_after) AS due FROM runs WHERE status = 'pending' AND run_after > $1`,
    [now],
  );
  return rows[0]?.due ?? null;
}
