import type { Logger } from "../logger.js";
import { createServiceContext, type HangarRuntime } from "../runtime.js";
import { cronsService } from "../services/crons.service.js";
import { retentionService } from "../services/retention.service.js";
import { webhookDeliveriesService } from "../services/webhook-deliveries.service.js";

export interface TtlSweeper {
  /** Stops the timers and waits for a sweep in progress. */
  close(): Promise<void>;
}

/**
 * Sweeps expired store items every store.ttl.sweep_interval_minutes and expired threads every
 * checkpointer.ttl.sweep_interval_minutes (langgraph.json; hourly by default), and webhook
 * deliveries that gave up a week ago, cron firings past each cron's newest 100, hourly, and (with
 * HANGAR_TRACE_RETENTION_DAYS) trace runs older than that, hourly. Every process
 * runs one; the sweeps' advisory locks make exactly one of them delete at a time, so several
 * processes never remove a row twice or trip over each other.
 */
export function startTtlSweeper(runtime: HangarRuntime, log: Logger): TtlSweeper {
  const ctx = createServiceContext(runtime, { kind: "anonymous" }, log);
  const running = new Set<Promise<void>>();
  const every = (minutes: number, what: string, sweep: () => Promise<number>) => {
    let inProgress = false;
    const timer = setInterval(() => {
      // A sweep slower than its interval is not started twice.
      if (inProgress) return;
      inProgress = true;
      const done = sweep()
        .then((deleted) => {
          if (deleted > 0) log.info({ deleted }, `expired ${what} swept`);
        })
        .catch((error: unknown) => log.warn({ err: error }, `${what} TTL sweep failed; retrying next interval`))
        .finally(() => {
          inProgress = false;
          running.delete(done);
        });
      running.add(done);
    }, minutes * 60_000);
    timer.unref();
    return timer;
  };
  const timers = [
    every(runtime.deployment.store.ttl.sweepIntervalMinutes, "store items", () => retentionService.sweepExpiredStoreItems(ctx)),
    every(runtime.deployment.checkpointer.ttl.sweepIntervalMinutes, "threads", () => retentionService.sweepExpiredThreads(ctx)),
    every(60, "webhook deliveries that gave up", () => webhookDeliveriesService.purgeGivenUp(ctx)),
    every(60, "cron firings past each cron's newest 100", () => cronsService.pruneFirings(ctx)),
  ];
  const { traceRetentionDays } = runtime.config;
  if (traceRetentionDays !== null) {
    timers.push(every(60, "trace runs past HANGAR_TRACE_RETENTION_DAYS", () => retentionService.sweepOldTraces(ctx, traceRetentionDays)));
  }
  return {
    async close() {
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...running]);
    },
  };
}
