import { claimWebhookDeliveries, type ClaimedWebhookDelivery } from "../db/sql/claim-webhook-deliveries.js";
import { deleteGivenUpWebhookDeliveries } from "../db/sql/delete-given-up-webhook-deliveries.js";
import { deleteWebhookDelivery } from "../db/sql/delete-webhook-delivery.js";
import { failWebhookDelivery } from "../db/sql/fail-webhook-delivery.js";
import { nextWebhookDueAt } from "../db/sql/next-webhook-due-at.js";
import type { ServiceContext } from "./service-context.js";

export type { ClaimedWebhookDelivery };

/**
 * Seconds to wait after each failed attempt, Standard Webhooks' suggested schedule compressed at
 * the start (its first retry is at 5 s): 2 s, 30 s, 5 min, 30 min, 2 h, 5 h, 10 h. Eight attempts
 * over about 18 hours, then the delivery gives up and stays in webhook_deliveries with its error.
 */
export const WEBHOOK_RETRY_DELAYS_SECONDS: readonly number[] = [2, 30, 300, 1800, 7200, 18000, 36000];

/**
 * An attempt's claim lasts this long: over the 10 s request timeout (webhook-sender.ts) with
 * room to record the result. A process killed mid-attempt delays that delivery by at most this.
 */
export const WEBHOOK_ATTEMPT_LEASE_SECONDS = 30;

/** A delivery that gave up stays this long, with its last error, then the TTL sweeper deletes it. */
export const GIVEN_UP_WEBHOOK_RETENTION_DAYS = 7;

/** The webhook outbox (webhook_deliveries), for the dispatcher. */
export const webhookDeliveriesService = {
  claimDue(ctx: ServiceContext, options: { limit: number; withServerPaths: boolean }): Promise<ClaimedWebhookDelivery[]> {
    return claimWebhookDeliveries(ctx.db.dataSource.manager, { ...options, leaseSeconds: WEBHOOK_ATTEMPT_LEASE_SECONDS });
  },

  delivered(ctx: ServiceContext, deliveryId: string): Promise<void> {
    return deleteWebhookDelivery(ctx.db.dataSource.manager, deliveryId);
  },

  /** Schedules the next attempt, or gives up (after the last, or at once when `final`). */
  failed(ctx: ServiceContext, deliveryId: string, failure: { error: string; final: boolean }): Promise<{ gaveUp: boolean }> {
    return failWebhookDelivery(ctx.db.dataSource.manager, {
      deliveryId,
      error: failure.error,
      retryDelaysSeconds: WEBHOOK_RETRY_DELAYS_SECONDS,
      giveUp: failure.final,
    });
  },

  /** Deletes deliveries that gave up over GIVEN_UP_WEBHOOK_RETENTION_DAYS ago; answers how many. */
  purgeGivenUp(ctx: ServiceContext): Promise<number> {
    return deleteGivenUpWebhookDeliveries(ctx.db.dataSource.manager, GIVEN_UP_WEBHOOK_RETENTION_DAYS);
  },

  nextDueAt(ctx: ServiceContext, options: { withServerPaths: boolean }): Promise<Date | null> {
    return nextWebhookDueAt(ctx.db.dataSource.manager, options);
  },
};
