import type { EntityManager } from "typeorm";

/** The earliest slot of any enabled cron (past ones included), for the scheduler's timer. Reads crons_due_idx. */
export async function nextCronDueAt(manager: EntityManager): Promise<Date | null> {
  const rows: Array<{ due: Date | null }> = await manager.query(
    `SELECT min(next_run_date) AS due FROM crons WHERE enabled AND next_run_date IS NOT NULL`,
  );
  return rows[0]?.due ?? null;
}
