/**
 * The cron scheduler: a clock (TickClock) on the process's own event loop that fires due crons
 * through the crons service. Design:
 *
 * - Exactly once. Every process may run a scheduler on the same database. A slot becomes a run
 *   only inside a transaction that claims the due cron rows with FOR UPDATE SKIP LOCKED, queues
 *   the runs (and the threads of stateless crons) and moves next_run_date to the next slot; a
 *   concurrent claimer skips or re-checks those rows, and a crash before the commit leaves the
 *   slot due. Slots missed while no scheduler ran fire once (the next slot is counted from now).
 * - On time. The clock sleeps until the earliest next_run_date (one timer), wakes when crons
 *   change (RunSignals.onCronsChanged: raised in-process by the crons service, and on PostgreSQL
 *   relayed from the crons trigger's NOTIFY hangar_cron_changed by the run-signal listener, which
 *   also raises it after a reconnect) and polls every HANGAR_CRON_POLL_MS only as a safety net.
 * - Where it runs. On the main thread, beside HTTP and the run worker. A tick mostly waits on SQL
 *   (10,000 stateless firings take ~640 ms in two parallel batches); the JS between statements
 *   composes runs and next slots. Earlier versions kept the clock in a Bree worker thread that
 *   asked the main thread to fire: the thread held nothing but a timer, and cost ~13 MB of RSS and
 *   a tsx bootstrap for TypeScript sources, so the clock moved here and Bree went.
 * - Firing only queues runs; the run worker (woken by announceFiring in-process, and by the runs
 *   NOTIFY trigger in other processes) executes them. The scheduler never runs a graph.
 * - Shutdown: main.ts acquires the scheduler last, so it is released first; close() stops the
 *   clock and waits for the tick in progress (it uses the pool, released after the scheduler).
 */
import { coerceError } from "../domain/errors.js";
import type { Logger } from "../logger.js";
import { createServiceContext, type HangarRuntime } from "../runtime.js";
import { cronsService } from "../services/crons.service.js";
import type { CronTick } from "../services/crons/fire-due-crons.js";
import { TickClock } from "./tick-clock.js";

/** A tick's numbers without its effects, for logs and tests. */
export type TickSummary = Omit<CronTick, "effects">;

export interface CronScheduler {
  /** Resolves after the first tick (it fired whatever was due at start-up), or on close. */
  readonly ready: Promise<void>;
  /** Called after every tick (tests and benchmarks read it). */
  onTick(listener: (tick: TickSummary) => void): () => void;
  close(): Promise<void>;
}

export async function startCronScheduler(runtime: HangarRuntime, log: Logger): Promise<CronScheduler> {
  const { config } = runtime;
  const ctx = createServiceContext(runtime, { kind: "anonymous" }, log);
  const listeners = new Set<(tick: TickSummary) => void>();
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const clock = new TickClock({
    tick: async () => {
      const { effects, ...tick } = await cronsService.fireDue(ctx, { batchSize: config.cronBatchSize });
      cronsService.announceFiring(ctx, effects);
      reportTick(tick);
      return { nextDueAt: tick.nextDueAt, retrySoon: tick.retrySoon };
    },
    safetyPollMs: config.cronPollMs,
    // The clock backs off (doubling up to the safety poll) and tries again.
    onError: (error) => log.error({ err: coerceError(error) }, "cron tick failed; retrying"),
  });

  function reportTick(tick: TickSummary): void {
    const busy = tick.fired + tick.refused + tick.deferred > 0;
    (busy ? log.info.bind(log) : log.debug.bind(log))({ tick }, "cron scheduler tick");
    markReady();
    for (const listener of listeners) listener(tick);
  }

  const unsubscribe = runtime.streaming.signals.onCronsChanged(() => clock.wake());
  clock.start();

  return {
    ready,
    onTick(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      unsubscribe();
      markReady(); // nobody waits for a first tick that will not come
      await clock.stop();
    },
  };
}
