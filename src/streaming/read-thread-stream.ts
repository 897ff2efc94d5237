import type { RunStreamEvent } from "../domain/run-event.js";
import type { ThreadStreamEvent } from "../db/sql/read-thread-events.js";
import type { BusMessage, RunEventBus } from "./run-event-bus.js";

export interface ThreadStreamSources {
  bus: RunEventBus;
  /** Writes this process's buffered run events (so what the bus just announced can be read). */
  flushStored(): Promise<void>;
  /** Stored events of the thread's runs after a stream position, in order (buffered ones flushed first), a page at a time. */
  readAfter(position: number): Promise<{ events: ThreadStreamEvent[]; hasMore: boolean }>;
  /** The last stream position of the thread now (0 when it has none). */
  lastPosition(): Promise<number>;
}

export interface ThreadStreamRequest {
  threadId: string;
  /** Replay what is stored after this position (Last-Event-ID); undefined: only what comes next. */
  afterPosition?: number;
  /** Which stored run events to send. */
  isWanted(event: RunStreamEvent): boolean;
  /** Sends a `run_done` event when a run ends. */
  sendsRunDone: boolean;
  /** Sends the thread's own events (state updates outside runs, which have no run and no position). */
  sendsThreadEvents: boolean;
  signal: AbortSignal;
}

// Announced events are stored: another process announces an event once committed
// (run-event-bus.ts) and this process's reads flush first. One that is not found was in a batch
// whose write failed for good (run-event-store.ts logs it). It is looked for again after a delay
// that doubles from 25 ms to 1 s, until it is read or its run's end arrives (the end of a run
// deleted meanwhile says so); its run's later events are read meanwhile.
const NOT_STORED_FIRST_RETRY_MS = 25;
const NOT_STORED_MAX_RETRY_MS = 1_000;

/**
 * A thread's stream: its runs' events in stored order, each with its stream position as SSE id,
 * so ids only grow across runs and a reconnect with Last-Event-ID resumes exactly where it left.
 * The bus only says that something new exists; what is sent is read from the store, so a live
 * reader and a replaying one see the same events with the same ids. Runs on until `signal` aborts.
 */
export async function openThreadStream(sources: ThreadStreamSources, request: ThreadStreamRequest): Promise<AsyncGenerator<RunStreamEvent>> {
  return eachOf(await openThreadStreamPages(sources, request));
}

/** A batched stream one item at a time. */
export async function* eachOf<T>(pages: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const page of pages) yield* page;
}

/**
 * openThreadStream a batch at a time: the events each read of the store found (never empty), for
 * a reader that hands a batch on at once (a WebSocket writes it in one system call), instead of
 * passing every event through its own `await`s.
 */
export async function openThreadStreamPages(sources: ThreadStreamSources, request: ThreadStreamRequest): Promise<AsyncGenerator<RunStreamEvent[]>> {
  const { signal } = request;
  // Announced run events not read back yet (run id → highest seq announced), finished runs, and
  // the thread's own events, in arrival order.
  const announced = new Map<string, number>();
  const ended: Array<Extract<BusMessage, { kind: "end" }>> = [];
  const threadEvents: RunStreamEvent[] = [];
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  const unsubscribe = sources.bus.subscribeThread(request.threadId, (message) => {
    if (message.kind === "end") ended.push(message);
    else if (message.event.runId === "") {
      if (!request.sendsThreadEvents) return;
      threadEvents.push(message.event);
    } else announced.set(message.event.runId, Math.max(announced.get(message.event.runId) ?? 0, message.event.seq));
    notify();
  });
  // Also on abort: a generator that is never iterated never reaches its `finally`.
  const stop = () => {
    unsubscribe();
    notify();
  };
  signal.addEventListener("abort", stop, { once: true });
  let position: number;
  try {
    // Subscribed first, then the starting point: nothing stored after it can be missed.
    await sources.flushStored();
    position = request.afterPosition ?? (await sources.lastPosition());
  } catch (error) {
    stop();
    throw error;
  }
  return drainThreadStream();

  async function* drainThreadStream(): AsyncGenerator<RunStreamEvent[]> {
    try {
      const readSeq = new Map<string, number>();
      let retryMs = NOT_STORED_FIRST_RETRY_MS;

      const readStored = async function* () {
        for (;;) {
          const { events, hasMore } = await sources.readAfter(position);
          const wanted: RunStreamEvent[] = [];
          for (const event of events) {
            position = event.position;
            if ((readSeq.get(event.runId) ?? 0) < event.seq) readSeq.set(event.runId, event.seq);
            if (request.isWanted(event)) wanted.push(event);
          }
          if (wanted.length > 0) yield wanted;
          if (!hasMore) return;
        }
      };
      yield* readStored();

      while (!signal.aborted) {
        if (threadEvents.length > 0) {
          yield threadEvents.splice(0);
          continue;
        }
        if (announced.size === 0 && ended.length === 0) {
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        const endedNow = ended.splice(0);
        yield* readStored();
        for (const [runId, seq] of announced) if ((readSeq.get(runId) ?? 0) >= seq) announced.delete(runId);
        for (const end of endedNow) {
          // A run's events are all stored before its end is announced; any still unread were not
          // kept (the run was deleted meanwhile), so they are not waited for.
          announced.delete(end.runId);
          if (request.sendsRunDone) {
            yield [{ runId: end.runId, threadId: end.threadId, seq: 0, event: "run_done", data: JSON.stringify({ run_id: end.runId, status: end.status }) }];
          }
        }
        if (announced.size === 0) retryMs = NOT_STORED_FIRST_RETRY_MS;
        if (announced.size > 0 && threadEvents.length === 0 && ended.length === 0) {
          const delayMs = retryMs;
          retryMs = Math.min(retryMs * 2, NOT_STORED_MAX_RETRY_MS);
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, delayMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
      }
    } finally {
      stop();
      signal.removeEventListener("abort", stop);
    }
  }
}
