import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/** When the earliest webhook delivery waiting for an attempt becomes due, for the dispatcher's timer. */
export async function nextWebhookDueAt(manager: EntityManager, options: { withServerPaths: boolean }): Promise<Date | null> {
  const { rows } = await runStatement<{ due: Date | null }>(
    manager,
    `SELECT min(next_attempt_at) AS due FROM webhook_deliveries WHERE gave_up_at IS NULL AND ($1 OR url NOT LIKE '/%')`,
    [options.withServerPaths],
  );
  return rows[0]?.due ?? null;
}
