import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/**
 * Records a failed attempt: the next one is due after `retryDelaysSeconds[attempts]` (1-based:
 * the delay after the first attempt is the first entry), computed from the database's clock;
 * past the last delay, or when the failure is final (`giveUp`), the delivery gives up and stays
 * with its error. Locks its row.
 */
export async function failWebhookDelivery(
  manager: EntityManager,
  failure: { deliveryId: string; error: string; retryDelaysSeconds: readonly number[]; giveUp: boolean },
): Promise<{ gaveUp: boolean }> {
  const { rows } = await runStatement<{ gave_up: boolean }>(
    manager,
    `UPDATE webhook_deliveries SET
       last_error = $2,
       next_attempt_at = now() + make_interval(secs => coalesce(($3::int[])[attempts], 0)),
       gave_up_at = CASE WHEN $4 OR attempts > cardinality($3::int[]) THEN now() END
     WHERE delivery_id = $1
     RETURNING gave_up_at IS NOT NULL AS gave_up`,
    [failure.deliveryId, failure.error, failure.retryDelaysSeconds, failure.giveUp],
  );
  return { gaveUp: rows[0]?.gave_up ?? true };
}
