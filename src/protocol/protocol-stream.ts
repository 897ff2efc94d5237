import { lastThreadEventPosition } from "../db/sql/last-thread-event-position.js";
import { readThreadEvents, type ThreadStreamEvent } from "../db/sql/read-thread-events.js";
import { threadStreamStart } from "../db/sql/thread-stream-start.js";
import type { RunStreamEvent } from "../domain/run-event.js";
import { isRunFinished } from "../domain/run.js";
import { NotFoundError } from "../domain/errors.js";
import { runEventsService } from "../services/run-events.service.js";
import { runsService } from "../services/runs.service.js";
import type { ServiceContext } from "../services/service-context.js";
import { threadsService } from "../services/threads.service.js";
import { ProtocolEventMapper } from "./protocol-events.js";
import { matchesFilter, ProtocolError, resumeAfterEventId, type EventFilter, type ProtocolEvent } from "./protocol-wire.js";

const REPLAY_PAGE = 1000;

// The run each streamed event came from. Not part of the protocol's wire (its events name no
// run), so kept beside the events rather than in them; GraphQL's ThreadEvent.runId reads it.
const runOfEvent = new WeakMap<ProtocolEvent, string>();

/** The run a protocol event of openProtocolEventStream came from. */
export function runIdOfEvent(event: ProtocolEvent): string | undefined {
  return runOfEvent.get(event);
}

/** The mapper, noting which run each event it makes came from. */
function notingRuns(mapper: ProtocolEventMapper): Pick<ProtocolEventMapper, "map"> {
  return {
    map(event) {
      const mapped = mapper.map(event);
      for (const protocolEvent of mapped) runOfEvent.set(protocolEvent, event.runId);
      return mapped;
    },
  };
}

export interface ProtocolEventStream {
  /** Stored events after `since` that match, in order (empty without `since`). */
  replayed: ProtocolEvent[];
  /** What comes after the replay, live, until the signal aborts. */
  live: AsyncGenerator<ProtocolEvent>;
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
 * run's first event (thread-stream-start.ts): a client that attaches mid-run sees that run whole,
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
  request: ReplayFrom & { threadId: string; filter: EventFilter; signal: AbortSignal },
): Promise<ProtocolEventStream> {
  const matches = (event: ProtocolEvent) => matchesFilter(request.filter, event);
  return openThreadEventStream(ctx, { threadId: request.threadId, parts: [{ since: request.since, afterEventId: request.afterEventId, matches }], live: matches, signal: request.signal });
}

/**
 * One stream of a thread's protocol events for several consumers (a socket's subscriptions): each
 * part replays from its own start what it matches, in one pass over the stored events and in
 * stream order, each event once; then one live stream, filtered by `live` as each event comes.
 */
export async function openThreadEventStream(
  ctx: ServiceContext,
  request: { threadId: string; parts: ReplayPart[]; live: (event: ProtocolEvent) => boolean; signal: AbortSignal },
): Promise<ProtocolEventStream> {
  const { threadId, signal } = request;
  for (const part of request.parts) {
    if (part.afterEventId !== undefined && !resumeAfterEventId(part.afterEventId)) throw new ProtocolError("invalid_argument", `'${part.afterEventId}' is not an event id of this server`);
  }
  await threadsService.get(ctx, threadId);
  const mapper = notingRuns(new ProtocolEventMapper());
  await ctx.streaming.store.flush();
  // Taken before the run is looked up: a run created meanwhile stores its events after it.
  const now = await lastThreadEventPosition(ctx.db.dataSource.manager, threadId);
  const runStart = request.parts.some((part) => part.since === undefined && part.afterEventId === undefined)
    ? ((await threadStreamStart(ctx.db.dataSource.manager, threadId)) ?? undefined)
    : undefined;
  const parts = request.parts.map((part) => {
    const resume = part.afterEventId === undefined ? undefined : resumeAfterEventId(part.afterEventId);
    const start = resume?.since ?? part.since ?? runStart ?? now;
    return { start, wants: (event: ProtocolEvent) => event.seq > start && !resume?.delivered(event) && part.matches(event) };
  });
  let position = Math.min(now, ...parts.map((part) => part.start));
  const stored: ThreadStreamEvent[] = [];
  for (;;) {
    const page = await readThreadEvents(ctx.db.dataSource.manager, threadId, position, REPLAY_PAGE);
    stored.push(...page);
    position = page.at(-1)?.position ?? position;
    if (page.length < REPLAY_PAGE) break;
  }
  // Subscribed before the replayed runs' statuses are read: a run that ends later announces its
  // end live; one that had ended gets its end from its status (ends are not stored events).
  const events = await runEventsService.openThreadStream(ctx, { threadId, threadModes: ["run_modes"], afterPosition: position, signal });
  const runIds = [...new Set(stored.map((event) => event.runId))];
  const runs = await runsService.getMany(ctx, runIds);
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
    replay({ ...event, streamId: String(event.position) });
    const nextRun = stored[index + 1]?.runId;
    if (nextRun !== event.runId) replayEnd(event.runId);
  });
  async function* live(): AsyncGenerator<ProtocolEvent> {
    for await (const event of events) {
      for (const mapped of mapper.map(event)) if (request.live(mapped)) yield mapped;
    }
  }
  return { replayed, live: live(), position, replayedPerPart };
}

/**
 * The protocol creates a thread on first use: a stream or command on an unknown thread id makes
 * it (the caller's, through the same service as POST /threads). Someone else's thread stays
 * theirs: the following read answers NOT_FOUND.
 */
export async function ensureThread(ctx: ServiceContext, threadId: string): Promise<void> {
  try {
    await threadsService.get(ctx, threadId);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    await threadsService.create(ctx, { threadId, ifExists: "do_nothing" });
  }
}

/** A run of the thread (what a reconnect names); NOT_FOUND otherwise. */
export async function requireRun(ctx: ServiceContext, threadId: string, runId: string): Promise<void> {
  await runsService.get(ctx, threadId, runId);
}
