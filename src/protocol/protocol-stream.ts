import { readThreadEvents, type ThreadStreamEvent } from "../db/sql/read-thread-events.js";
import { threadStreamPositions } from "../db/sql/thread-stream-positions.js";
import type { RunStreamEvent } from "../domain/run-event.js";
import { isRunFinished } from "../domain/run.js";
import type { Thread } from "../domain/thread.js";
import { NotFoundError } from "../domain/errors.js";
import { runEventsService } from "../services/run-events.service.js";
import { eachOf } from "../streaming/read-thread-stream.js";
import { runsService } from "../services/runs.service.js";
import type { ServiceContext } from "../services/service-context.js";
import { threadsService } from "../services/threads.service.js";
import { ProtocolEventMapper } from "./protocol-events.js";
import { matchesFilter, ProtocolError, resumeAfterEventId, type EventFilter, type ProtocolEvent } from "./protocol-wire.js";

const REPLAY_PAGE = 1000;

export interface ProtocolEventStream {
  /** Stored events after `since` that match, in order (empty without `since`). */
  replayed: ProtocolEvent[];
  /**
   * What comes after the replay, live, until the signal aborts: a batch per read of the store
   * (never empty), so a socket writes a batch at once.
   */
  livePages: AsyncGenerator<ProtocolEvent[]>;
  /** The thread stream position the replay ended at (the live part follows it). */
  position: number;
  /** How many replayed events each part wanted (openThreadEventStream's parts, in order). */
  replayedPerPart: number[];
}

/** Where a replay starts: after a position (`since`) or after an event id (`afterEventId`). */
export interface ReplayFrom {
  since?: number;
  afterEventId?: string;
}

/** One consumer's share of a replay: where it starts and which events it wants. */
export interface ReplayPart extends ReplayFrom {
  matches: (event: ProtocolEvent) => boolean;
}

/**
 * A thread's protocol events for one filter: the stored events after `since` first, then live ones
 * from where the replay ended (no gap, no duplicate: both are read from the thread's stored run
 * events, whose positions only grow). Without `since`, the replay starts at the first event of
 * the thread's active runs (the one in progress, then those queued behind it), else at the latest
 * run's first event (thread-stream-positions.ts): a client that attaches mid-run sees that run whole,
 * and one that sends run.start and opens its stream at the same time (the SDK does) sees the whole
 * run whichever arrives first; a thread without runs starts now. The official server replays the
 * buffer of the run its thread record was last bound to (the newest run.start, even a queued one),
 * in one process's memory; Hangar starts at the run in progress instead, so a queued run does not
 * hide the one before it.
 * The live part follows the thread's stream (bus + store), so runs executing in another process
 * are seen. Unknown thread or one the caller may not read: NOT_FOUND. `afterEventId` resumes
 * after an event id (a reconnect, SSE's Last-Event-ID) instead of `since`.
 */
export async function openProtocolEventStream(
  ctx: ServiceContext,
  request: ReplayFrom & { threadId: string; createThread?: boolean; filter: EventFilter; signal: AbortSignal },
): Promise<{ replayed: ProtocolEvent[]; live: AsyncGenerator<ProtocolEvent> }> {
  const matches = (event: ProtocolEvent) => matchesFilter(request.filter, event);
  const { threadId, createThread, signal } = request;
  const stream = await openThreadEventStream(ctx, { threadId, createThread, parts: [{ since: request.since, afterEventId: request.afterEventId, matches }], live: matches, signal });
  return { replayed: stream.replayed, live: eachOf(stream.livePages) };
}


/**
 * One stream of a thread's protocol events for several consumers (a socket's subscriptions): each
 * part replays from its own start what it matches, in one pass over the stored events and in
 * stream order, each event once; then one live stream, filtered by `live` as each event comes
 * (unfiltered without it: a socket filters as it sends, so an unsubscribe holds at once).
 * `createThread`: an unknown thread id is created first (ensureThread).
 *
 * Opening costs three statements when there is nothing to replay (the thread, its positions, the
 * live stream's first read), as many as the SSE thread stream's; a socket on each of 1,000
 * threads made the difference measurable (bench/protocol.ts).
 */
export async function openThreadEventStream(
  ctx: ServiceContext,
  request: { threadId: string; createThread?: boolean; parts: ReplayPart[]; live?: (event: ProtocolEvent) => boolean; signal: AbortSignal },
): Promise<ProtocolEventStream> {
  const { threadId, signal } = request;
  for (const part of request.parts) {
    if (part.afterEventId !== undefined && !resumeAfterEventId(part.afterEventId)) throw new ProtocolError("invalid_argument", `'${part.afterEventId}' is not an event id of this server`);
  }
  const thread = request.createThread ? await ensureThread(ctx, threadId) : await threadsService.get(ctx, threadId);
  const mapper = new ProtocolEventMapper();
  await ctx.streaming.store.flush();
  const startsAtRun = request.parts.some((part) => part.since === undefined && part.afterEventId === undefined);
  // One snapshot: a run created after it stores its events after `now`.
  const { last: now, runStart } = await threadStreamPositions(ctx.db.dataSource.manager, thread.threadId, startsAtRun);
  const parts = request.parts.map((part) => {
    const resume = part.afterEventId === undefined ? undefined : resumeAfterEventId(part.afterEventId);
    const start = resume?.since ?? part.since ?? runStart ?? now;
    return { start, wants: (event: ProtocolEvent) => event.seq > start && !resume?.delivered(event) && part.matches(event) };
  });
  let position = Math.min(now, ...parts.map((part) => part.start));
  const stored: ThreadStreamEvent[] = [];
  // Nothing stored after `now` was seen yet: what comes after it is the live stream's to read.
  for (let hasMore = position < now; hasMore; ) {
    const page = await readThreadEvents(ctx.db.dataSource.manager, threadId, position, REPLAY_PAGE);
    stored.push(...page);
    position = page.at(-1)?.position ?? position;
    hasMore = page.length === REPLAY_PAGE;
  }
  // Subscribed before the replayed runs' statuses are read: a run that ends later announces its
  // end live; one that had ended gets its end from its status (ends are not stored events).
  const pages = await runEventsService.openThreadStreamPages(ctx, { threadId, readThread: thread, threadModes: ["run_modes"], afterPosition: position, signal });
  const runIds = [...new Set(stored.map((event) => event.runId))];
  const runs = runIds.length === 0 ? [] : await runsService.getMany(ctx, runIds);
  const endOf = new Map(runs.flatMap((run) => (run && isRunFinished(run.status) ? [[run.runId, run.status] as const] : [])));
  const replayed: ProtocolEvent[] = [];
  const replayedPerPart = parts.map(() => 0);
  const replay = (event: RunStreamEvent) => {
    for (const mapped of mapper.map(event)) {
      const wanted = parts.map((part, index) => part.wants(mapped) && ++replayedPerPart[index]!);
      if (wanted.some(Boolean)) replayed.push(mapped);
    }
  };
  const replayEnd = (runId: string) => {
    const status = endOf.get(runId);
    if (status) replay({ runId, threadId, seq: 0, event: "run_done", data: JSON.stringify({ run_id: runId, status }) });
  };
  stored.forEach((event, index) => {
    replay(event);
    const nextRun = stored[index + 1]?.runId;
    if (nextRun !== event.runId) replayEnd(event.runId);
  });
  const isLive = request.live;
  async function* livePages(): AsyncGenerator<ProtocolEvent[]> {
    for await (const page of pages) {
      const out: ProtocolEvent[] = [];
      // Every stored event goes through the mapper (messages need what came before), wanted or not.
      for (const event of page) for (const mapped of mapper.map(event)) if (!isLive || isLive(mapped)) out.push(mapped);
      if (out.length > 0) yield out;
    }
  }
  return { replayed, livePages: livePages(), position, replayedPerPart };
}

/**
 * The protocol creates a thread on first use: a stream or command on an unknown thread id makes
 * it (the caller's, through the same service as POST /threads). Someone else's thread stays
 * theirs: the following read answers NOT_FOUND.
 */
async function ensureThread(ctx: ServiceContext, threadId: string): Promise<Thread> {
  try {
    return await threadsService.get(ctx, threadId);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    await threadsService.create(ctx, { threadId, ifExists: "do_nothing" });
    return await threadsService.get(ctx, threadId);
  }
}

/** A run of the thread (what a reconnect names); NOT_FOUND otherwise. */
export async function requireRun(ctx: ServiceContext, threadId: string, runId: string): Promise<void> {
  await runsService.get(ctx, threadId, runId);
}
