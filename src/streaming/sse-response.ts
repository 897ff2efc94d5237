import type { OpenCounter } from "../metrics/hangar-metrics.js";
import { InvalidInputError } from "../domain/errors.js";
import type { RunStreamEvent } from "../domain/run-event.js";

const encoder = new TextEncoder();
// Proxies drop idle connections; a comment line keeps a quiet run's stream open.
const DEFAULT_HEARTBEAT_MS = 15_000;

/**
 * One SSE frame. Its `id` counts a run's events from 0 as LangGraph Platform does, i.e. seq - 1
 * (what Last-Event-ID sends back: see afterSeqOfLastEventId), unless it carries its own
 * `streamId` (a thread stream's position). Events that are neither (seq 0, such as a thread
 * stream's run_done) have no id.
 */
export function formatSseEvent(event: Pick<RunStreamEvent, "seq" | "event" | "data" | "streamId">): string {
  const id = event.streamId !== undefined ? `id: ${event.streamId}\n` : event.seq >= 1 ? `id: ${event.seq - 1}\n` : "";
  return `event: ${event.event}\ndata: ${event.data}\n${id}\n`;
}

/** The seq to replay after, for a Last-Event-ID header (an SSE id is seq - 1); 0 replays all. */
export function afterSeqOfLastEventId(header: string | undefined): number {
  if (header === undefined || !/^\d+$/.test(header.trim())) return 0;
  return Number.parseInt(header, 10) + 1;
}

/**
 * A thread stream's Last-Event-ID: the position to replay after; "-" (LangGraph Platform's "from
 * the beginning") and "-1" (what the SDK's stream hooks send) replay everything; absent: no replay.
 */
export function threadStreamPositionOf(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === "") return undefined;
  const value = header.trim();
  if (value === "-" || value === "-1") return 0;
  if (!/^\d+$/.test(value)) throw new InvalidInputError(`Last-Event-ID '${value}' is not an event id of a thread stream (a number, or "-" for all)`);
  return Number(value);
}

/**
 * A text/event-stream Response over a run's events. The body ends when the events end (the run
 * ended); `onDisconnect` runs when the client goes away first. `opening`, an event already known
 * when the response is made (create-and-stream's `metadata`), is queued in the body before it is
 * returned, so it leaves right behind the headers instead of a few turns of the event loop later.
 *
 * The response is marked `transfer-encoding: chunked` (what Node sends for a body of unknown
 * length anyway): without it, @hono/node-server reads ahead to size a body, and when the first
 * event is ready but the second is not, it waits on a timer (≥ 1 ms) before sending anything.
 */
export function sseResponse(
  events: AsyncIterable<RunStreamEvent>,
  options: {
    headers?: Record<string, string>;
    onDisconnect?: () => void;
    abort: AbortController;
    heartbeatMs?: number;
    openStreams?: OpenCounter;
    opening?: RunStreamEvent;
  },
): Response {
  const iterator = events[Symbol.asyncIterator]();
  let heartbeat: NodeJS.Timeout | null = null;
  let finished = false;
  let closeCount = () => undefined as void;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (options.openStreams) closeCount = options.openStreams.open();
      if (options.opening) controller.enqueue(encoder.encode(formatSseEvent(options.opening)));
      heartbeat = setInterval(() => controller.enqueue(encoder.encode(": heartbeat\n\n")), options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
      heartbeat.unref();
    },
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) {
          finished = true;
          if (heartbeat) clearInterval(heartbeat);
          closeCount();
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(formatSseEvent(next.value)));
      } catch (error) {
        finished = true;
        if (heartbeat) clearInterval(heartbeat);
        closeCount();
        controller.error(error);
      }
    },
    async cancel() {
      if (heartbeat) clearInterval(heartbeat);
      closeCount();
      // Decided before the events are stopped: stopping them ends the iterator, and the pull
      // waiting on it would then mark the stream finished as if the run had ended.
      if (!finished) options.onDisconnect?.();
      finished = true;
      options.abort.abort();
      await iterator.return?.(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
      "transfer-encoding": "chunked",
      ...options.headers,
    },
  });
}
