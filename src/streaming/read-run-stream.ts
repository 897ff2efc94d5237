import { WORKER_WRITE_PATIENCE_MS } from "../db/retry.js";
import type { RunStreamEvent } from "../domain/run-event.js";
import type { RunStatus } from "../domain/run.js";
import type { BusMessage, RunEventBus } from "./run-event-bus.js";
import type { RunEventStore } from "./run-event-store.js";

export interface RunStreamSources {
  bus: RunEventBus;
  store: RunEventStore;
  /** The run's status now, or null when it no longer exists. */
  readRunStatus(runId: string): Promise<RunStatus | null>;
  /**
   * Subscribes to the run's `done` signal, which crosses processes even without Redis; `status`
   * is how it ended when this process settled it (a relayed NOTIFY does not say).
   */
  onRunDone(runId: string, listener: (status?: RunStatus) => void): () => void;
}

export interface RunStreamRequest {
  runId: string;
  threadId: string;
  /** Replay starts after this seq (Last-Event-ID); 0 replays everything stored. */
  afterSeq?: number;
  /** Only these stream modes (plus metadata and error); all when omitted. */
  modes?: readonly string[];
  signal?: AbortSignal;
  /**
   * The stream was opened before its run was queued (openRunStream, then createRun): nothing
   * can be stored or ended yet, so the opening read of the run's status and stored events is
   * skipped. Every event reaches the reader live, or through the same gap and end reads as any
   * other stream's (a worker in another process without Redis).
   */
  openedBeforeQueued?: boolean;
}

/**
 * A run's events; the generator's return value is the status the run ended with, as the stream
 * heard it (the run's row read first, the bus's `end`, or the `done` of the process that settled
 * it), or null when it did not: the run was deleted, another process ended it without Redis, or
 * the reader stopped. Callers that report the end use it because a stateless run's row is
 * deleted right after it ends, so reading the row afterwards can find nothing.
 */
export type RunStreamEvents = AsyncGenerator<RunStreamEvent, RunStatus | null, undefined>;

/** A run's stream, subscribed from the moment it is opened (openRunStream). */
export interface RunStreamReader {
  events: RunStreamEvents;
  /** Stops listening; for a reader whose events are never iterated (its run was not queued). */
  close(): void;
}

const ALWAYS_SENT = new Set(["metadata", "error"]);

// A live event that is not the next seq means events before it are not in this reader's hands:
// those of this process are read from the store at once (it holds what is not committed yet);
// another process sends its events only once committed (run-event-bus.ts), so a gap there is a
// batch whose write failed after the worker retried it for WORKER_WRITE_PATIENCE_MS. The store is
// read again after short pauses, then the stream goes on without the missing events.
const GAP_PAUSES_MS = [5, 10, 20, 40, 80, 160, 250];
const GAP_PATIENCE_MS = WORKER_WRITE_PATIENCE_MS + 1_000;

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
 * A run's events from `afterSeq` on, each exactly once and in order: first what is stored, then
 * live ones. The bus is subscribed before the store is read, so no event published later can be
 * missed, and seq decides what is new. Events published before the subscription reach this reader
 * only through the store, which holds them by then (another process announces an event only once it
 * is committed; this process's store reads what it has not written yet). A live event that is not
 * the next seq first reads the store up to it (see GAP_PAUSES_MS), and a run that ends before any
 * live event reached this reader has its store read once more (its worker stored every event before
 * it ended the run). Ends when the run ends, or at once after the replay when it had already ended
 * (its status is read before the store, so that replay is complete).
 *
 * The bus carries a run's events only within its process unless Redis links the processes. A run
 * executed by another process (`serve --no-worker` beside `hangar worker`, without REDIS_URL)
 * still ends the stream: its `done` signal (NOTIFY) comes through, and what it stored is read.
 */
export function readRunStream(sources: RunStreamSources, request: RunStreamRequest): RunStreamEvents {
  return drainRunStream(sources, request);
}

/**
 * readRunStream's reader, subscribed at once rather than at its first read: opened before its run
 * is queued (with `openedBeforeQueued`), it hears the run from its first event. It stops listening
 * when its events end, when `signal` aborts, or at `close()`.
 */
export function openRunStream(sources: RunStreamSources, request: RunStreamRequest): RunStreamReader {
  const listener = listenToRun(sources, request);
  return { events: drainRunStream(sources, request, listener), close: listener.close };
}

/** What a reader has heard of its run so far, and how it is woken. */
interface RunListener {
  pending: BusMessage[];
  doneSignalled(): boolean;
  /** The status the `done` signal told, when the process that settled the run raised it. */
  doneStatus(): RunStatus | null;
  /** Resolves at the next message, `done` signal or abort. */
  next(): Promise<void>;
  close(): void;
}

/** Subscribes to the run's bus messages and `done` signal (before any read, see readRunStream). */
function listenToRun(sources: RunStreamSources, request: RunStreamRequest): RunListener {
  const { signal } = request;
  const pending: BusMessage[] = [];
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  let doneSignalled = false;
  let doneStatus: RunStatus | null = null;
  let closed = false;
  const unsubscribe = sources.bus.subscribeRun(request.runId, (message) => {
    pending.push(message);
    notify();
  });
  const stopWatchingDone = sources.onRunDone(request.runId, (status) => {
    doneSignalled = true;
    doneStatus ??= status ?? null;
    notify();
  });
  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    stopWatchingDone();
    signal?.removeEventListener("abort", onAbort);
  };
  // Wakes a reader waiting for the next message, and frees a reader that was never iterated.
  const onAbort = () => {
    close();
    notify();
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  return {
    pending,
    doneSignalled: () => doneSignalled,
    doneStatus: () => doneStatus,
    next: () => new Promise<void>((resolve) => (wake = resolve)),
    close,
  };
}

/** The reader's loop; `opened`: its listener, when it was subscribed before the first read. */
async function* drainRunStream(sources: RunStreamSources, request: RunStreamRequest, opened?: RunListener): RunStreamEvents {
  const listener = opened ?? listenToRun(sources, request);
  const isWanted = streamModeFilter(request.modes);
  const { signal } = request;
  const { pending } = listener;

  try {
    let lastSeq = request.afterSeq ?? 0;
    const replay = async function* () {
      for (const event of await sources.store.read(request.runId, request.threadId, lastSeq)) {
        lastSeq = event.seq;
        if (isWanted(event)) yield event;
      }
    };
    /** Reads the store until it holds every event up to `seq` (or the run ended, or patience ran out). */
    const catchUp = async function* (seq: number) {
      const deadline = Date.now() + GAP_PATIENCE_MS;
      for (let attempt = 0; ; attempt++) {
        // Ended before this read: the store is complete, nothing more will come.
        const hasEnded = listener.doneSignalled() || pending.some((message) => message.kind === "end");
        yield* replay();
        if (lastSeq >= seq || hasEnded || signal?.aborted || Date.now() >= deadline) return;
        await pause(GAP_PAUSES_MS[Math.min(attempt, GAP_PAUSES_MS.length - 1)]!, signal);
      }
    };
    // The status first: the worker stores every event before it records the end, so a run found
    // finished here has all its events in the store read next. Read the other way round, a run
    // ending in another process between the two reads left a finished stream with nothing in it
    // (seen once in ~2,400 streams joined on another process under load).
    if (!request.openedBeforeQueued) {
      const status = await sources.readRunStatus(request.runId);
      yield* replay();
      if (status === null || (status !== "pending" && status !== "running")) return status;
    }

    let hasHeardLive = false;
    while (!signal?.aborted) {
      const message = pending.shift();
      if (!message && listener.doneSignalled()) {
        // Ended without its events reaching this process: the worker stored them all first.
        yield* replay();
        return listener.doneStatus();
      }
      if (!message) {
        await listener.next();
        continue;
      }
      if (message.kind === "end") {
        // Events published before the subscription and stored after the replay's read.
        if (!hasHeardLive) yield* replay();
        return message.status === "deleted" ? null : message.status;
      }
      hasHeardLive = true;
      const { event } = message;
      if (event.seq > lastSeq + 1) yield* catchUp(event.seq - 1);
      if (event.seq <= lastSeq) continue;
      lastSeq = event.seq;
      if (isWanted(event)) yield event;
    }
    return null;
  } finally {
    listener.close();
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
