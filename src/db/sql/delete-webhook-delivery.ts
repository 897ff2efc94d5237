import type { EntityManager } from "typeorm";

/** A delivered webhook leaves the outbox. Locks its row. */
export async function deleteWebhookDelivery(manager: EntityManager, deliveryId: string): Promise<void> {
  await manager.query(`DELETE FROM webhook_deliveries WHERE delivery_id = $1`, [deliveryId]);
}
