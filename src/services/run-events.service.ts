import { InvalidInputError } from "../domain/errors.js";
import type { RunStreamEvent, ThreadStreamMode } from "../domain/run-event.js";
import type { Run } from "../domain/run.js";
import type { ServiceContext } from "./service-context.js";
import { threadsService } from "./threads.service.js";

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
   * The live events of every run on a thread from now on, until `signal` aborts; NOT_FOUND for an
   * unknown thread. The bus is subscribed before this resolves, so a run started after it resolves
   * is seen from its first event. Nothing is replayed: a run's history is `list` (or its own stream).
   * `threadModes` (LangGraph Platform's thread stream modes) also sends a `run_done` event when
   * a run ends; without it only the runs' own events are sent.
   */
  async openThreadStream(
    ctx: ServiceContext,
    request: { threadId: string; signal: AbortSignal; threadModes?: readonly ThreadStreamMode[] },
  ): Promise<AsyncGenerator<RunStreamEvent>> {
    const { threadId } = await threadsService.get(ctx, request.threadId);
    const modes = new Set(request.threadModes ?? []);
    const sendsRunDone = modes.has("run_modes") || modes.has("lifecycle");
    const isWanted = (event: RunStreamEvent) =>
      modes.size === 0 ||
      modes.has("run_modes") ||
      (modes.has("lifecycle") && event.event === "metadata") ||
      (modes.has("state_update") && event.event === "values");
    const { signal } = request;
    const pending: RunStreamEvent[] = [];
    let wake: (() => void) | null = null;
    const notify = () => {
      wake?.();
      wake = null;
    };
    const unsubscribe = ctx.streaming.bus.subscribeThread(threadId, (message) => {
      // A run's end message only closes that run's streams; the thread's stream goes on.
      if (message.kind === "end") {
        if (!sendsRunDone) return;
        const data = JSON.stringify({ run_id: message.runId, status: message.status });
        pending.push({ runId: message.runId, threadId: message.threadId, seq: 0, event: "run_done", data });
      } else if (isWanted(message.event)) {
        pending.push(message.event);
      } else {
        return;
      }
      notify();
    });
    // Also on abort: a generator that is never iterated never reaches its `finally`.
    const stop = () => {
      unsubscribe();
      notify();
    };
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });

    return (async function* drainThreadEvents() {
      try {
        while (!signal.aborted) {
          const event = pending.shift();
          if (event) yield event;
          else await new Promise<void>((resolve) => (wake = resolve));
        }
      } finally {
        unsubscribe();
        signal.removeEventListener("abort", stop);
      }
    })();
  },
};
