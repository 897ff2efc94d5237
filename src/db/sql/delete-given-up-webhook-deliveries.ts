import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/**
 * Deletes deliveries that gave up more than `keepDays` ago (kept until then for the operator to
 * see why). Locks the deleted rows; several processes sweeping at once delete each row once.
 */
export async function deleteGivenUpWebhookDeliveries(manager: EntityManager, keepDays: number): Promise<number> {
  const { affected } = await runStatement(
    manager,
    `DELETE FROM webhook_deliveries WHERE gave_up_at < now() - make_interval(days => $1)`,
    [keepDays],
  );
  return affected;
}
