import type { RunStreamEvent } from "../domain/run-event.js";
import type { RunStatus } from "../domain/run.js";
import type { BusMessage, RunEventBus } from "./run-event-bus.js";
import type { RunEventStore } from "./run-event-store.js";

export interface RunStreamSources {
  bus: RunEventBus;
  store: RunEventStore;
  /** The run's status now, or null when it no longer exists. */
  readRunStatus(runId: string): Promise<RunStatus | null>;
  /** Subscribes to the run's `done` signal, which crosses processes even without Redis. */
  onRunDone(runId: string, listener: () => void): () => void;
}

export interface RunStreamRequest {
  runId: string;
  threadId: string;
  /** Replay starts after this seq (Last-Event-ID); 0 replays everything stored. */
  afterSeq?: number;
  /** Only these stream modes (plus metadata and error); all when omitted. */
  modes?: readonly string[];
  signal?: AbortSignal;
}

const ALWAYS_SENT = new Set(["metadata", "error"]);

/** `updates|child:1` → updates, `messages/partial` → messages. */
export function streamModeOfEvent(event: string): string {
  return event.split(/[|/]/, 1)[0]!;
}

/**
 * Whether an event belongs to one of `modes` (all events when none are given). `metadata` and
 * `error` always do; `messages-tuple` events are named `messages` on the wire.
 */
export function streamModeFilter(modes: readonly string[] | undefined): (event: Pick<RunStreamEvent, "event">) => boolean {
  if (modes === undefined || modes.length === 0) return () => true;
  const wanted = new Set(modes.map((mode) => (mode === "messages-tuple" ? "messages" : mode)));
  return (event) => ALWAYS_SENT.has(event.event) || wanted.has(streamModeOfEvent(event.event));
}

/**
 * A run's events from `afterSeq` on: first what is stored, then live ones, without gaps or
 * duplicates (the bus is subscribed before the replay is read, and seq decides what is new).
 * Ends when the run ends, or at once after the replay when it had already ended.
 *
 * The bus carries a run's events only within its process unless Redis links the processes. A run
 * executed by another process (`serve --no-worker` beside `hangar worker`, without REDIS_URL)
 * still ends the stream: its `done` signal (NOTIFY) comes through, and what it stored is read.
 */
export async function* readRunStream(sources: RunStreamSources, request: RunStreamRequest): AsyncGenerator<RunStreamEvent> {
  const isWanted = streamModeFilter(request.modes);

  const pending: BusMessage[] = [];
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  let doneSignalled = false;
  const unsubscribe = sources.bus.subscribeRun(request.runId, (message) => {
    pending.push(message);
    notify();
  });
  const stopWatchingDone = sources.onRunDone(request.runId, () => {
    doneSignalled = true;
    notify();
  });
  request.signal?.addEventListener("abort", notify, { once: true });

  try {
    let lastSeq = request.afterSeq ?? 0;
    const replay = async function* () {
      for (const event of await sources.store.read(request.runId, request.threadId, lastSeq)) {
        lastSeq = event.seq;
        if (isWanted(event)) yield event;
      }
    };
    yield* replay();
    // The worker stores every event before it records the end, so a finished run is complete here.
    const status = await sources.readRunStatus(request.runId);
    if (status === null || (status !== "pending" && status !== "running")) return;

    while (!request.signal?.aborted) {
      const message = pending.shift();
      if (!message && doneSignalled) {
        // Ended without its events reaching this process: the worker stored them all first.
        yield* replay();
        return;
      }
      if (!message) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if (message.kind === "end") return;
      if (message.event.seq <= lastSeq) continue;
      lastSeq = message.event.seq;
      if (isWanted(message.event)) yield message.event;
    }
  } finally {
    unsubscribe();
    stopWatchingDone();
    request.signal?.removeEventListener("abort", notify);
  }
}
