/**
 * The cron scheduler's Bree job: a worker thread that lives as long as the process and keeps only
 * the clock (TickClock: wake at the next due slot, on `changed`, and on a slow safety poll). Each
 * tick is a `fire` message; the main thread fires the due crons (cronsService.fireDue) and answers
 * `fired` with when the next one is due (see cron-scheduler.ts).
 *
 * It imports no database code, no logger and nothing of the service layer on purpose: measured on
 * Node 22.15, a worker thread adds ~13 MB of RSS with the clock alone, ~42 MB once it loads pg,
 * TypeORM, the entities and the firing code to fire on its own pool as it once did on PostgreSQL
 * (cron-scheduler.ts has the whole server's numbers).
 * Tick failures are logged by the main thread, where the error happens.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { SchedulerJobData, ToJobMessage, ToMainMessage } from "../scheduler-protocol.js";
import { TickClock, type TickOutcome } from "../tick-clock.js";

const port = parentPort;
if (!port) throw new Error("fire-crons is a worker thread entry (started by Bree)");
const options = workerData as SchedulerJobData;
const send = (message: ToMainMessage) => port.postMessage(message);

/** Replies to `fire` requests, by request id. */
const pendingFires = new Map<number, { resolve: (outcome: TickOutcome) => void; reject: (error: Error) => void }>();
let lastRequestId = 0;
let stopping: Promise<void> | null = null;

const clock = new TickClock({
  tick: () =>
    new Promise<TickOutcome>((resolve, reject) => {
      const requestId = ++lastRequestId;
      pendingFires.set(requestId, { resolve, reject });
      send({ kind: "fire", requestId });
    }),
  safetyPollMs: options.safetyPollMs,
  // The main thread logged the failure when it answered `fired` with it; the clock backs off.
  onError: () => undefined,
});

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

/** Lets a tick in progress finish (its `fired` answer still comes), then tells Bree it may terminate us. */
async function stop(): Promise<void> {
  await clock.stop();
  send("cancelled");
}

clock.start();
