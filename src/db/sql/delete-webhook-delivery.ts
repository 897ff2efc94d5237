import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/** A delivered webhook leaves the outbox. Locks its row. */
export async function deleteWebhookDelivery(manager: EntityManager, deliveryId: string): Promise<void> {
  await runStatement(manager, `DELETE FROM webhook_deliveries WHERE delivery_id = $1`, [deliveryId]);
}
