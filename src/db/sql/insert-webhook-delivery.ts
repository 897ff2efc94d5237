import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/**
 * Queues a run's webhook in the outbox, inside the caller's transaction (the one recording the
 * run's outcome, when settleRunOutcomes cannot be used). Locks nothing beyond the new row.
 */
export async function insertWebhookDelivery(manager: EntityManager, delivery: { runId: string; url: string; body: string }): Promise<void> {
  await runStatement(manager, `INSERT INTO webhook_deliveries (run_id, url, body) VALUES ($1, $2, $3)`, [delivery.runId, delivery.url, delivery.body]);
}
