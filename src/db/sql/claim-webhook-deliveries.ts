import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

export interface ClaimedWebhookDelivery {
  deliveryId: string;
  runId: string;
  url: string;
  body: string;
  /** This attempt's number, from 1. */
  attempt: number;
}

/**
 * Claims up to `limit` due webhook deliveries for one attempt each: the attempt is counted and
 * `next_attempt_at` moves `leaseSeconds` ahead, which is the claim (another process sees the row
 * as not due until then; a process killed mid-attempt leaves it to be claimed again after).
 * Paths of this server ("/…") are claimed only by processes that serve HTTP (`withServerPaths`).
 *
 * Locks: the claimed rows, `for update skip locked`, so concurrent claimers split the due rows.
 */
export async function claimWebhookDeliveries(
  manager: EntityManager,
  options: { limit: number; leaseSeconds: number; withServerPaths: boolean },
): Promise<ClaimedWebhookDelivery[]> {
  const { rows } = await runStatement<{ delivery_id: string; run_id: string; url: string; body: string; attempts: number }>(
    manager,
    `WITH due AS (
       SELECT delivery_id FROM webhook_deliveries
       WHERE gave_up_at IS NULL AND next_attempt_at <= now() AND ($3 OR url NOT LIKE '/%')
       ORDER BY next_attempt_at
       LIMIT $1
       FOR UPDATE SKIP LOCKED
     )
     UPDATE webhook_deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => $2)
     FROM due WHERE d.delivery_id = due.delivery_id
     RETURNING d.delivery_id, d.run_id, d.url, d.body, d.attempts`,
    [options.limit, options.leaseSeconds, options.withServerPaths],
  );
  return rows.map((row) => ({ deliveryId: row.delivery_id, runId: row.run_id, url: row.url, body: row.body, attempt: row.attempts }));
}
