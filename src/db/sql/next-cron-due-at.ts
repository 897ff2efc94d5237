import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/** The earliest slot of any enabled cron (past ones included), for the scheduler's timer. Reads crons_due_idx. */
export async function nextCronDueAt(manager: EntityManager): Promise<Date | null> {
  const { rows } = await runStatement<{ due: Date | null }>(
    manager,
    `SELECT min(next_run_date) AS due FROM crons WHERE enabled AND next_run_date IS NOT NULL`,
  );
  return rows[0]?.due ?? null;
}
