import { InvalidInputError } from "../domain/errors.js";
import type { RunStreamEvent, ThreadStreamMode } from "../domain/run-event.js";
import type { Run } from "../domain/run.js";
import type { Thread } from "../domain/thread.js";
import type { ServiceContext } from "./service-context.js";
import { threadsService } from "./threads.service.js";
import { lastThreadEventPosition } from "../db/sql/last-thread-event-position.js";
import { openThreadStream, openThreadStreamPages, type ThreadStreamRequest, type ThreadStreamSources } from "../streaming/read-thread-stream.js";

/**
 * A run's stored events (replay pages) and a thread's live stream. Runs themselves are read in
 * runs.service.ts; waiting for a run's end is run-results.service.ts.
 */

/** Most events one read returns; page on with `afterSeq` (a token-streaming run stores thousands). */
export const MAX_RUN_EVENTS_PER_READ = 1000;

export const runEventsService = {
  /** A run's stored events after `afterSeq` (0: from the start), at most `limit`, in seq order. */
  async list(
    ctx: ServiceContext,
    run: Pick<Run, "runId" | "threadId">,
    query: { afterSeq?: number; limit?: number } = {},
  ): Promise<RunStreamEvent[]> {
    const limit = query.limit ?? MAX_RUN_EVENTS_PER_READ;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RUN_EVENTS_PER_READ) {
      throw new InvalidInputError(`limit must be between 1 and ${MAX_RUN_EVENTS_PER_READ}`);
    }
    const events = await ctx.streaming.store.read(run.runId, run.threadId, Math.max(0, query.afterSeq ?? 0));
    return events.slice(0, limit);
  },

  /**
   * A thread's stream until `signal` aborts (NOT_FOUND for an unknown thread): its runs' events in
   * stored order, each with its stream position as id, so ids grow across runs. Without
   * `afterPosition` it starts now (the bus is subscribed before this resolves, so a run started
   * after it resolves is seen from its first event); with one it first replays what is stored
   * after it (Last-Event-ID). `threadModes` (LangGraph Platform's thread stream modes) choose the
   * events (domain/run-event.ts); without them every run event is sent and nothing else. A caller
   * that has just read the thread through threadsService in this ctx passes it as `readThread`
   * (a protocol stream does): it is not read again.
   */
  async openThreadStream(
    ctx: ServiceContext,
    request: ThreadStreamOptions,
  ): Promise<AsyncGenerator<RunStreamEvent>> {
    return openThreadStream(...(await threadStreamOf(ctx, request)));
  },

  /** openThreadStream a batch at a time (each store read's wanted events), for a reader that sends a batch at once. */
  async openThreadStreamPages(ctx: ServiceContext, request: ThreadStreamOptions): Promise<AsyncGenerator<RunStreamEvent[]>> {
    return openThreadStreamPages(...(await threadStreamOf(ctx, request)));
  },

};

interface ThreadStreamOptions {
  threadId: string;
  readThread?: Thread;
  signal: AbortSignal;
  threadModes?: readonly ThreadStreamMode[];
  afterPosition?: number;
}

/** The thread stream's sources and request (the thread read unless the caller just did). */
async function threadStreamOf(ctx: ServiceContext, request: ThreadStreamOptions): Promise<[ThreadStreamSources, ThreadStreamRequest]> {
  const { threadId } = request.readThread ?? (await threadsService.get(ctx, request.threadId));
  const modes = new Set(request.threadModes ?? []);
  const { store } = ctx.streaming;
  return [
    {
      bus: ctx.streaming.bus,
      flushStored: () => store.flush(),
      readAfter: (position) => store.readThreadAfter(threadId, position),
      lastPosition: () => lastThreadEventPosition(ctx.db.dataSource.manager, threadId),
    },
    {
      threadId,
      afterPosition: request.afterPosition,
      isWanted: (event) =>
        modes.size === 0 ||
        modes.has("run_modes") ||
        (modes.has("lifecycle") && event.event === "metadata") ||
        (modes.has("state_update") && event.event === "values"),
      sendsRunDone: modes.has("run_modes") || modes.has("lifecycle"),
      sendsThreadEvents: modes.has("state_update"),
      signal: request.signal,
    },
  ];
}
