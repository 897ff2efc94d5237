/**
 * The cron scheduler's Bree job: a worker thread that lives as long as the process. It keeps
 * the clock (TickClock: wake at the next due slot, on changes, and on a slow safety poll) and at
 * each tick fires the due crons. It only queues runs; the run worker executes them.
 *
 * - PostgreSQL (databaseUrl set): it fires here, two batches in parallel on its own pool of two
 *   connections, and hears cron changes from every process through LISTEN hangar_cron_changed.
 *   It imports the firing half of the crons service (services/crons/fire-due-crons.ts) rather
 *   than crons.service.ts, whose CRUD imports (assistants, threads → @langchain/langgraph) would
 *   add ~1 s and ~100 MB to this thread's start (measured under tsx); firing needs none of them.
 * - Embedded database (databaseUrl null): PGlite is one connection owned by the main thread, so
 *   each tick is a `fire` message answered by the main thread (cron-scheduler.ts), and this
 *   thread loads no database code at all.
 */
import { parentPort, workerData } from "node:worker_threads";
import { coerceError } from "../../domain/errors.js";
import { createLogger } from "../../logger.js";
import type { SchedulerJobData, ToJobMessage, ToMainMessage } from "../scheduler-protocol.js";
import { TickClock, type TickOutcome } from "../tick-clock.js";

interface Driver {
  tick(): Promise<TickOutcome>;
  close(): Promise<void>;
}

const port = parentPort;
if (!port) throw new Error("fire-crons is a worker thread entry (started by Bree)");
const options = workerData as SchedulerJobData;
const log = createLogger(options.logLevel).child({ component: "cron-scheduler" });
const send = (message: ToMainMessage) => port.postMessage(message);

/** Replies to `fire` requests (embedded database), by request id. */
const pendingFires = new Map<number, { resolve: (outcome: TickOutcome) => void; reject: (error: Error) => void }>();
let driver: Driver | null = null;
let stopping: Promise<void> | null = null;

const clock = new TickClock({
  tick: () => driver!.tick(),
  safetyPollMs: options.safetyPollMs,
  onError: (error) => log.error({ err: coerceError(error) }, "cron tick failed; retrying"),
});

// Registered before anything is awaited: Bree may ask us to stop while we connect.
port.on("message", (message: ToJobMessage) => {
  if (message === "cancel") {
    stopping ??= stop();
  } else if (message.kind === "changed") {
    clock.wake();
  } else if (message.kind === "fired") {
    const pending = pendingFires.get(message.requestId);
    pendingFires.delete(message.requestId);
    if ("error" in message.outcome) pending?.reject(new Error(message.outcome.error));
    else pending?.resolve(message.outcome);
  }
});

async function stop(): Promise<void> {
  await clock.stop();
  await driver?.close();
  send("cancelled");
}

/**
 * Batches fired at once, each in its own transaction on its own connection. Two measured best on
 * this 2-core machine: 10,000 stateless firings took 640 ms against 840 ms with one (and 820 ms
 * with 500-cron batches); the runs INSERT (its trigger and indexes) is most of the time.
 */
const FIRING_CONCURRENCY = 2;

async function openDatabaseDriver(databaseUrl: string): Promise<Driver> {
  // Imported here, not at the top: on the embedded database this thread only keeps the clock,
  // and TypeORM with the entities alone would add ~30 MB to it.
  const [{ default: pg }, { createDataSource }, { fireDueCrons }, { listenForCronChanges }] = await Promise.all([
    import("pg"),
    import("../../db/data-source.js"),
    import("../../services/crons/fire-due-crons.js"),
    import("../cron-change-listener.js"),
  ]);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: FIRING_CONCURRENCY, application_name: "hangar-cron-scheduler" });
  pool.on("error", (error) => log.warn({ err: error }, "idle cron scheduler connection failed"));
  const dataSource = createDataSource(pool);
  await dataSource.initialize();
  const listener = await listenForCronChanges(databaseUrl, () => clock.wake(), log);
  const ctx = { db: { dataSource }, log, now: () => new Date() };
  return {
    async tick() {
      const { effects, ...tick } = await fireDueCrons(ctx, { batchSize: options.batchSize, concurrency: FIRING_CONCURRENCY });
      if (effects.firstRunAfter || effects.cancellations.length > 0) send({ kind: "announce", effects });
      send({ kind: "ticked", tick });
      return { nextDueAt: tick.nextDueAt, retrySoon: tick.retrySoon };
    },
    async close() {
      await listener.close();
      await dataSource.destroy();
    },
  };
}

function delegatingDriver(): Driver {
  let lastRequestId = 0;
  return {
    tick: () =>
      new Promise<TickOutcome>((resolve, reject) => {
        const requestId = ++lastRequestId;
        pendingFires.set(requestId, { resolve, reject });
        send({ kind: "fire", requestId });
      }),
    async close() {
      for (const pending of pendingFires.values()) pending.reject(new Error("cron scheduler stopped"));
      pendingFires.clear();
    },
  };
}

driver = options.databaseUrl ? await openDatabaseDriver(options.databaseUrl) : delegatingDriver();
if (stopping) await driver.close();
else clock.start();
