import { runResultsService } from "../../../services/run-results.service.js";
import { runsService } from "../../../services/runs.service.js";
import { builder } from "../../builder.js";
import { RunEventRef } from "./run.js";

/**
 * Subscriptions read the same stream as REST's SSE endpoints (stored events, then the live bus),
 * over graphql-ws and over Yoga's SSE alike. Each checks its run or thread before the stream
 * opens, so NOT_FOUND arrives as an ordinary GraphQL error rather than a broken stream.
 */

// The root type is declared with the runs' subscriptions (thread-events.ts adds threadEvents).
builder.subscriptionType({});

/**
 * `events` as a subscription source whose return() (the client unsubscribed, or its connection
 * closed) aborts `abort` before anything else. Aborting is what ends the stream: an async
 * generator waiting for the next live event would only run return() once that wait settled, which
 * on a quiet run or thread may be never, leaving its bus listener behind.
 */
export function untilUnsubscribed<T>(events: AsyncGenerator<T>, abort: AbortController): AsyncIterableIterator<T> {
  const stop = async () => {
    abort.abort();
    await events.return(undefined);
  };
  return {
    next: () => events.next(),
    return: async () => {
      await stop();
      return { done: true, value: undefined };
    },
    throw: async (error: unknown) => {
      await stop();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

builder.subscriptionFields((t) => ({
  runEvents: t.field({
    type: RunEventRef,
    description:
      "A run's stream events: those stored after afterSeq first, then live ones; completes when the run " +
      "ends (at once after the replay when it already has). The same events as REST's SSE stream.",
    args: {
      runId: t.arg.id({ required: true }),
      afterSeq: t.arg.int({ description: "Resume after this seq (the last one seen); default: from the first event." }),
    },
    subscribe: async (_root, args, ctx) => {
      const run = await runsService.get(ctx.services, null, args.runId);
      const abort = new AbortController();
      const events = runResultsService.stream(ctx.services, {
        runId: run.runId,
        threadId: run.threadId,
        afterSeq: Math.max(0, args.afterSeq ?? 0),
        signal: abort.signal,
      });
      return untilUnsubscribed(events, abort);
    },
    resolve: (event) => event,
  }),
}));
