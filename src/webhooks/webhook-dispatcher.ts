import { coerceError } from "../domain/errors.js";
import { signWebhook } from "../domain/webhook-signature.js";
import type { WebhookSettings } from "../graphs/webhooks-config.js";
import type { ServiceContext } from "../services/service-context.js";
import { webhookDeliveriesService, type ClaimedWebhookDelivery } from "../services/webhook-deliveries.service.js";
import { sendWebhook, type ServerPathFetch } from "./webhook-sender.js";

/** Attempts under way at once per process: receivers are slow (up to 10 s), the outbox is not. */
const CONCURRENCY = 8;
/** The longest sleep: other processes' webhooks, and this one's after a lost wake-up, wait at most this. */
const POLL_MS = 5_000;
/** The shortest sleep when nothing was due: the database's clock and ours may differ a little. */
const MIN_SLEEP_MS = 250;

export interface WebhookDispatcherOptions {
  settings: WebhookSettings;
  /** HANGAR_WEBHOOK_SECRET's key; null: deliveries are unsigned (warned once). */
  signingKey: Buffer | null;
  /** This process's HTTP app, for webhooks to paths of this server; null in a worker-only process. */
  serverPath: ServerPathFetch | null;
}

/**
 * Delivers queued webhooks (the webhook_deliveries outbox), in every process: woken when this
 * process queues one, and polling for the rest (other processes' webhooks, retries coming due,
 * deliveries a killed process left half-done). Each attempt is signed in the Standard Webhooks
 * format: `webhook-id` is the delivery's id (the same on every retry, for receivers to drop
 * duplicates: a process killed after sending but before recording it delivers again),
 * `webhook-timestamp` the attempt's time.
 */
export class WebhookDispatcher {
  private stopped = false;
  private wakeRequested = false;
  private wakeSleeper: (() => void) | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private loop: Promise<void> | null = null;
  private warnedUnsigned = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly options: WebhookDispatcherOptions,
  ) {
    this.unsubscribe = ctx.streaming.signals.onWebhooksQueued(() => this.wake());
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Stops claiming; attempts under way get `graceMs` to finish, then are aborted (and retried later). */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    this.wake();
    await this.loop;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
    clearTimeout(timer);
    this.abort.abort();
    await Promise.allSettled([...this.inFlight]);
  }

  private wake(): void {
    this.wakeRequested = true;
    this.wakeSleeper?.();
  }

  private async run(): Promise<void> {
    const withServerPaths = this.options.serverPath !== null;
    while (!this.stopped) {
      this.wakeRequested = false;
      const free = CONCURRENCY - this.inFlight.size;
      let claimed: ClaimedWebhookDelivery[] = [];
      if (free > 0) {
        try {
          claimed = await webhookDeliveriesService.claimDue(this.ctx, { limit: free, withServerPaths });
        } catch (error) {
          this.ctx.log.warn({ err: coerceError(error) }, "could not claim webhook deliveries; trying again");
        }
      }
      for (const delivery of claimed) this.track(this.deliver(delivery));
      if (this.stopped || this.wakeRequested || (free > 0 && claimed.length === free)) continue;
      await this.sleep(free > 0 ? await this.untilNextDue(withServerPaths) : POLL_MS);
    }
  }

  private track(attempt: Promise<void>): void {
    this.inFlight.add(attempt);
    void attempt.finally(() => {
      this.inFlight.delete(attempt);
      this.wake();
    });
  }

  private async untilNextDue(withServerPaths: boolean): Promise<number> {
    try {
      const due = await webhookDeliveriesService.nextDueAt(this.ctx, { withServerPaths });
      if (!due) return POLL_MS;
      return Math.min(POLL_MS, Math.max(MIN_SLEEP_MS, due.getTime() - Date.now()));
    } catch {
      return POLL_MS;
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.wakeRequested || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wakeSleeper = null;
        resolve();
      }
      this.wakeSleeper = done;
    });
  }

  private async deliver(delivery: ClaimedWebhookDelivery): Promise<void> {
    const { settings, signingKey } = this.options;
    const log = this.ctx.log.child({ deliveryId: delivery.deliveryId, runId: delivery.runId, url: delivery.url, attempt: delivery.attempt });
    const timestamp = Math.floor(Date.now() / 1000);
    if (!signingKey && !this.warnedUnsigned) {
      this.warnedUnsigned = true;
      log.warn("webhooks are sent unsigned: set HANGAR_WEBHOOK_SECRET (whsec_…) so receivers can verify them");
    }
    const headers = {
      ...settings.headers,
      "content-type": "application/json",
      ...(signingKey
        ? signWebhook(signingKey, delivery.deliveryId, timestamp, delivery.body)
        : { "webhook-id": delivery.deliveryId, "webhook-timestamp": String(timestamp) }),
    };
    try {
      const result = await sendWebhook(
        { url: delivery.url, headers, body: delivery.body },
        { policy: settings.policy, serverPath: this.options.serverPath, signal: this.abort.signal },
      );
      if (result.ok) {
        await webhookDeliveriesService.delivered(this.ctx, delivery.deliveryId);
        log.debug({ status: result.status }, "webhook delivered");
        return;
      }
      const { gaveUp } = await webhookDeliveriesService.failed(this.ctx, delivery.deliveryId, { error: result.error, final: result.final });
      if (gaveUp) log.error({ error: result.error }, "webhook delivery gave up");
      else log.warn({ error: result.error }, "webhook delivery failed; will retry");
    } catch (error) {
      // Recording failed (database unreachable): the claim's lease ends and the attempt is made again.
      log.warn({ err: coerceError(error) }, "could not record a webhook delivery attempt; it will be attempted again");
    }
  }
}
