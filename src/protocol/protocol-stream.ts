import { readThreadEvents } from "../db/sql/read-thread-events.js";
import { NotFoundError } from "../domain/errors.js";
import { runEventsService } from "../services/run-events.service.js";
import type { ServiceContext } from "../services/service-context.js";
import { threadsService } from "../services/threads.service.js";
import { ProtocolEventMapper } from "./protocol-events.js";
import { matchesFilter, type EventFilter, type ProtocolEvent } from "./protocol-wire.js";

const REPLAY_PAGE = 1000;

export interface ProtocolEventStream {
  /** Stored events after `since` that match, in order (empty without `since`). */
  replayed: ProtocolEvent[];
  /** What comes after the replay, live, until the signal aborts. */
  live: AsyncGenerator<ProtocolEvent>;
}

/**
 * A thread's protocol events for one filter: with `since`, the stored events after that stream
 * position first, then live ones from where the replay ended (no gap, no duplicate: both are read
 * from the thread's stored run events, whose positions only grow); without it, from now on.
 * The live part follows the thread's stream (bus + store), so runs executing in another process
 * are seen. Unknown thread or one the caller may not read: NOT_FOUND.
 */
export async function openProtocolEventStream(
  ctx: ServiceContext,
  request: { threadId: string; filter: EventFilter; since?: number; signal: AbortSignal },
): Promise<ProtocolEventStream> {
  const { threadId, filter, signal } = request;
  await threadsService.get(ctx, threadId);
  const mapper = new ProtocolEventMapper();
  const replayed: ProtocolEvent[] = [];
  let position = request.since;
  if (position !== undefined) {
    await ctx.streaming.store.flush();
    for (;;) {
      const page = await readThreadEvents(ctx.db.dataSource.manager, threadId, position, REPLAY_PAGE);
      for (const event of page) {
        position = event.position;
        for (const mapped of mapper.map({ ...event, streamId: String(event.position) })) if (matchesFilter(filter, mapped)) replayed.push(mapped);
      }
      if (page.length < REPLAY_PAGE) break;
    }
  }
  const events = await runEventsService.openThreadStream(ctx, { threadId, threadModes: ["run_modes"], afterPosition: position, signal });
  async function* live(): AsyncGenerator<ProtocolEvent> {
    for await (const event of events) {
      for (const mapped of mapper.map(event)) if (matchesFilter(filter, mapped)) yield mapped;
    }
  }
  return { replayed, live: live() };
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
