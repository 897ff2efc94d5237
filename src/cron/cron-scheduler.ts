/**
 * The cron scheduler: Bree running one long-lived job, `jobs/fire-crons`, in a worker thread
 * started at boot (not a thread per tick). Design:
 *
 * - Exactly once. Every process may run a scheduler on the same database. A slot becomes a run
 *   only inside a transaction that claims the due cron rows with FOR UPDATE SKIP LOCKED, queues
 *   the runs (and the threads of stateless crons) and moves next_run_date to the next slot; a
 *   concurrent claimer skips or re-checks those rows, and a crash before the commit leaves the
 *   slot due. Slots missed while no scheduler ran fire once (the next slot is counted from now).
 * - On time. The job sleeps until the earliest next_run_date (one timer), wakes when crons change
 *   (RunSignals.onCronsChanged: raised in-process by the crons service, and on PostgreSQL relayed
 *   from the crons trigger's NOTIFY hangar_cron_changed by the run-signal listener, which also
 *   raises it after a reconnect) and polls every HANGAR_CRON_POLL_MS only as a safety net.
 * - Where firing runs. The job keeps only the clock; at each tick it sends `fire`, and this
 *   thread runs cronsService.fireDue on the process's pool and answers with the next due time,
 *   on every database. The trade-off, measured on Node 22.15: a worker thread adds ~13 MB of RSS
 *   with the clock alone, ~42 MB when it loaded pg, TypeORM, the entities and the firing code to
 *   fire on its own pool; the idle server on PostgreSQL settles ~10 MB lower for it (30 s after
 *   start: 168 MB against 178 MB; at 10 s the reading swings by ±50 MB with GC timing). In
 *   exchange a tick shares this event loop with HTTP and the run worker; it mostly waits on SQL
 *   (10,000 stateless firings took ~640 ms in two parallel batches, measured when they ran in
 *   the thread), and the JS between statements is composing runs and next slots.
 * - Firing only queues runs; the run worker (woken by announceFiring in-process, and by the runs
 *   NOTIFY trigger in other processes) executes them. Bree never runs a graph.
 * - TypeScript sources: Node 20 ignores `execArgv: ["--import", "tsx"]` for a worker's own entry
 *   file (measured: ERR_UNKNOWN_FILE_EXTENSION), so under tsx/vitest the job starts as a small
 *   eval script that registers tsx and then imports the .ts entry; from dist it is plain JS.
 * - Shutdown: main.ts acquires the scheduler last, so it is released first; Bree's `cancel` makes
 *   the job wait for the tick in progress (this thread still answers it) and answer `cancelled`,
 *   after which Bree terminates it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import Bree from "bree";
import { coerceError } from "../domain/errors.js";
import type { Logger } from "../logger.js";
import { createServiceContext, type HangarRuntime } from "../runtime.js";
import { cronsService } from "../services/crons.service.js";
import type { SchedulerJobData, TickSummary, ToJobMessage, ToMainMessage } from "./scheduler-protocol.js";

const JOB_NAME = "fire-crons";
/** First delay before restarting a crashed job; doubled per crash in a row, up to a minute. */
const RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 60_000;
/**
 * How long close() waits for the job to answer `cancel` before terminating its thread. The job
 * answers once the tick in progress has been answered; that tick runs on this thread, so
 * terminating the job never cuts it short (close() waits for it: a 10,000-cron tick takes about
 * a second). This only bounds a job that stopped answering.
 */
const STOP_TIMEOUT_MS = 5_000;

export interface CronScheduler {
  /** Resolves after the job's first tick (it fired whatever was due at start-up), or on close. */
  readonly ready: Promise<void>;
  /** Called after every tick the job reports (tests and benchmarks read it). */
  onTick(listener: (tick: TickSummary) => void): () => void;
  close(): Promise<void>;
}

export async function startCronScheduler(runtime: HangarRuntime, log: Logger): Promise<CronScheduler> {
  const { config } = runtime;
  const ctx = createServiceContext(runtime, { kind: "anonymous" }, log);
  const listeners = new Set<(tick: TickSummary) => void>();
  let isReady = false;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve)).then(() => {
    isReady = true;
  });
  let closing = false;
  /** Ticks in progress; close() waits for them, as they use the pool released after the scheduler. */
  const ticks = new Set<Promise<void>>();
  let restartDelayMs = RESTART_DELAY_MS;

  const jobData: SchedulerJobData = { safetyPollMs: config.cronPollMs };
  const bree = new Bree({
    root: false,
    doRootCheck: false,
    logger: breeLogger(log),
    jobs: [jobOf(jobData)],
    errorHandler: (error) => {
      // Bree terminates the job after it answered `cancelled`, which reads as exit code 1.
      if (!closing) log.error({ err: coerceError(error) }, "cron scheduler job failed");
    },
    workerMessageHandler: ({ message }) => {
      const request = message as ToMainMessage;
      if (request === "cancelled") return;
      const tick = answerTick(request.requestId).finally(() => ticks.delete(tick));
      ticks.add(tick);
    },
  });

  const post = (message: ToJobMessage) => bree.workers.get(JOB_NAME)?.postMessage(message);

  /** A tick of the job's clock: fires what is due and answers when the next slot is. Never rejects. */
  async function answerTick(requestId: number): Promise<void> {
    if (closing) {
      // Asked between close() and the job reading `cancel`: it only waits for this answer to stop.
      post({ kind: "fired", requestId, outcome: { error: "cron scheduler stopping" } });
      return;
    }
    try {
      const { effects, ...tick } = await cronsService.fireDue(ctx, { batchSize: config.cronBatchSize });
      cronsService.announceFiring(ctx, effects);
      reportTick(tick);
      post({ kind: "fired", requestId, outcome: { nextDueAt: tick.nextDueAt, retrySoon: tick.retrySoon } });
    } catch (error) {
      const err = coerceError(error);
      log.error({ err }, "cron tick failed; retrying");
      post({ kind: "fired", requestId, outcome: { error: err.message } });
    }
  }

  function reportTick(tick: TickSummary): void {
    const busy = tick.fired + tick.refused + tick.deferred > 0;
    (busy ? log.info.bind(log) : log.debug.bind(log))({ tick }, "cron scheduler tick");
    markReady();
    restartDelayMs = RESTART_DELAY_MS;
    for (const listener of listeners) listener(tick);
  }

  // The job thread exits only on a crash (or on stop): start it again, the schedule is in the database.
  bree.on("worker deleted", () => {
    if (closing) return;
    log.error({ restartInMs: restartDelayMs }, "cron scheduler job exited; restarting it");
    setTimeout(() => {
      if (!closing) void bree.run(JOB_NAME);
    }, restartDelayMs).unref();
    restartDelayMs = Math.min(MAX_RESTART_DELAY_MS, restartDelayMs * 2);
  });

  const unsubscribe = runtime.streaming.signals.onCronsChanged(() => post({ kind: "changed" }));
  // run() validates the job (Bree's init) and starts its thread.
  await bree.run(JOB_NAME);

  return {
    ready,
    onTick(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      closing = true;
      unsubscribe();
      const worker = bree.workers.get(JOB_NAME);
      // A job still starting (importing its modules: ~1 s under tsx) would read `cancel` only
      // once started, holding shutdown up for nothing: it has no tick worth finishing.
      const timeout = setTimeout(() => void worker?.terminate(), isReady ? STOP_TIMEOUT_MS : 0);
      markReady(); // nobody waits for a first tick that will not come
      try {
        await bree.stop();
      } finally {
        clearTimeout(timeout);
      }
      await Promise.all(ticks);
    },
  };
}

/**
 * The job, started with `run` (no Bree timer: it runs until stopped). Its entry is the compiled
 * .js beside this file, or under tsx/vitest an eval script that registers tsx in the new thread
 * before importing the .ts entry (see the header).
 */
function jobOf(workerData: SchedulerJobData): Bree.JobOptions {
  const here = fileURLToPath(import.meta.url);
  const extension = path.extname(here);
  const entry = path.join(path.dirname(here), "jobs", `${JOB_NAME}${extension}`);
  const job = { name: JOB_NAME, timeout: false as const, interval: 0 };
  if (extension !== ".ts") return { ...job, path: entry, worker: { workerData } };
  const tsxApi = pathToFileURL(tsxEsmApiPath()).href;
  const script =
    `import(${JSON.stringify(tsxApi)})` +
    `.then((api) => { (api.register ?? api.default.register)(); return import(${JSON.stringify(pathToFileURL(entry).href)}); })`;
  return { ...job, path: script, worker: { workerData, eval: true } };
}

/**
 * tsx's ESM register API as a file path. require.resolve would give its CommonJS build, which
 * fails to load its ESM half inside a worker thread (measured), so read the `import` target of
 * the package's exports map.
 */
function tsxEsmApiPath(): string {
  const packageJson = createRequire(import.meta.url).resolve("tsx/package.json");
  const { exports } = JSON.parse(readFileSync(packageJson, "utf8")) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return path.join(path.dirname(packageJson), exports["./esm/api"]!.import.default);
}

/** Bree's own chatter (worker online, exited with code 0) at debug; its errors go through errorHandler. */
function breeLogger(log: Logger) {
  return {
    info: (message: unknown) => log.debug({ bree: String(message) }, "bree"),
    warn: (message: unknown) => log.warn({ bree: String(message) }, "bree"),
    error: (message: unknown) => log.error({ bree: String(message) }, "bree"),
  };
}
