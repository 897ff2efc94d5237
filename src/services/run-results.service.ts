import { selectRunOutcome } from "../db/sql/select-run-outcome.js";
import { selectRuns } from "../db/sql/select-runs.js";
import { NotFoundError } from "../domain/errors.js";
import { runMetadataEvent, type RunStreamEvent } from "../domain/run-event.js";
import { isRunFinished, type Run, type RunStatusAndValues } from "../domain/run.js";
import type { RunCreateRequest } from "../domain/run-request.js";
import {
  openRunStream,
  readRunStream,
  type RunStreamEvents,
  type RunStreamReader,
  type RunStreamRequest,
  type RunStreamSources,
} from "../streaming/read-run-stream.js";
import { createRun } from "./run-lifecycle/create-run.js";
import { openRun } from "./field-encryption.js";
import { requireRunId } from "./runs.service.js";
import { threadsService } from "./threads.service.js";
import { isRestricted, scopeOf } from "./access-scope.js";
import { threadExists } from "../db/sql/thread-exists.js";
import { isUuid } from "../domain/ids.js";
import type { ServiceContext } from "./service-context.js";

/**
 * Waiting for runs to end and answering with what they left (join, wait, create-and-stream).
 * Reading runs is runs.service.ts; their stored events, run-events.service.ts; what changes a run,
 * run-lifecycle/.
 */

// Waits are woken by `done` signals (in-process, or relayed NOTIFY); this re-check only covers a
// signal lost with a dropped listener connection, so it is deliberately slow.
const SAFETY_RECHECK_MS = 5_000;

/** What a finished run leaves for `join` and `wait`: the thread's values, or its error. */
export type RunResult = Record<string, unknown>;

async function readRun(ctx: ServiceContext, runId: string): Promise<Run | null> {
  const [run] = await selectRuns(ctx.db.dataSource.manager, [runId]);
  return run ?? null;
}

// A run's first claim makes it attempt 1 (claim-runs.ts), whose events are numbered from 1.
const FIRST_ATTEMPT = 1;
const FIRST_SEQ = 1;

/** `first`, then the reader's events; stops the reader however it ends (even before its first read). */
async function* startingWith(first: RunStreamEvent, reader: RunStreamReader): RunStreamEvents {
  try {
    yield first;
    return yield* reader.events;
  } finally {
    reader.close();
  }
}

function streamSources(ctx: ServiceContext): RunStreamSources {
  return {
    bus: ctx.streaming.bus,
    store: ctx.streaming.store,
    readRunStatus: async (runId) => (await readRun(ctx, runId))?.status ?? null,
    onRunDone: (runId, listener) => ctx.streaming.signals.onDone(runId, (outcome) => listener(outcome?.status)),
  };
}

/**
 * Reads `read()` until `isOver` holds for what it returns (or it returns null: the run is gone),
 * re-reading each time the run's `done` signal fires. A `done` raised by the worker that settled
 * the run carries its outcome; `fromOutcome` turns that into the answer without a read.
 */
async function readWhenRunEnds<T>(
  ctx: ServiceContext,
  runId: string,
  read: () => Promise<T | null>,
  isOver: (value: T) => boolean,
  options: { signal?: AbortSignal; fromOutcome?: (outcome: RunStatusAndValues) => T } = {},
): Promise<T | null> {
  const { signal, fromOutcome } = options;
  let wake: (outcome?: RunStatusAndValues) => void = () => undefined;
  const onWake = (outcome?: RunStatusAndValues) => wake(outcome);
  const stop = ctx.streaming.signals.onDone(runId, onWake);
  const onAbort = () => wake();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    let told: RunStatusAndValues | undefined;
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const woken = new Promise<RunStatusAndValues | undefined>((resolve) => {
        wake = resolve;
        timer = setTimeout(() => resolve(undefined), SAFETY_RECHECK_MS);
      });
      const value = told && fromOutcome ? fromOutcome(told) : await read();
      if (value === null || isOver(value) || signal?.aborted) {
        clearTimeout(timer);
        return value;
      }
      told = await woken;
      clearTimeout(timer);
    }
  } finally {
    stop();
    signal?.removeEventListener("abort", onAbort);
  }
}

export const runResultsService = {
  /** Resolves when the run has finished (the run) or was deleted (null). */
  async waitForEnd(ctx: ServiceContext, runId: string, signal?: AbortSignal): Promise<Run | null> {
    const id = requireRunId(runId);
    const run = await readWhenRunEnds(ctx, id, () => readRun(ctx, id), (run) => isRunFinished(run.status), { signal });
    return run && openRun(ctx, run);
  },

  /**
   * GET .../join: waits for the run, then answers with the thread's values (or the error). Each
   * look is one read of the run with its thread's values; a run settled by this process needs
   * only the first (which also checks the run is on this thread), and a run this process knows
   * to be live on that thread (it created it, or its worker executes it) none: the `done` of its
   * worker carries the outcome. (Most joins come right after their run was created here: one
   * statement less per run.) The values are answered as the graph left them: any JSON value (a
   * functional-API graph may leave a string or a list), `{}` when the thread has none.
   */
  async join(ctx: ServiceContext, threadId: string, runId: string, signal?: AbortSignal): Promise<unknown> {
    const id = requireRunId(runId);
    const threadKey = threadId.toLowerCase();
    const scope = await scopeOf(ctx, "threads", "read", { thread_id: threadId, run_id: runId });
    if (isRestricted(scope) && !(isUuid(threadKey) && (await threadExists(ctx.db.dataSource.manager, threadKey, scope)))) {
      throw new NotFoundError(`Run '${runId}' not found on thread '${threadId}'`);
    }
    let first: RunStatusAndValues | null | undefined;
    const read = async () => {
      // Checked in the same turn as readWhenRunEnds subscribes to `done`, so that cannot be missed.
      if (first === undefined && ctx.streaming.signals.threadOfLiveRun(id) === threadKey) {
        first = { threadId: threadKey, status: "running", error: null, threadValues: null };
        return first;
      }
      const outcome = await selectRunOutcome(ctx.db.dataSource.manager, id);
      if (first === undefined) {
        first = outcome;
        if (!outcome || outcome.threadId !== threadKey) {
          throw new NotFoundError(`Run '${runId}' not found on thread '${threadId}'`);
        }
      }
      return outcome;
    };
    const outcome = await readWhenRunEnds(ctx, id, read, (run) => isRunFinished(run.status), {
      signal,
      fromOutcome: (told) => told,
    });
    // Deleted meanwhile (rollback): what its thread holds now.
    if (outcome === null) return (await threadsService.get(ctx, first!.threadId)).values ?? {};
    if (outcome.status === "error" && outcome.error) return { __error__: outcome.error };
    return outcome.threadValues ?? {};
  },

  /** A run's stream events (replay, then live) until it ends; returns the end status it heard (RunStreamEvents). */
  stream(ctx: ServiceContext, request: RunStreamRequest): RunStreamEvents {
    return readRunStream(streamSources(ctx), request);
  },

  /**
   * Queues a run and follows its stream (create-and-stream, create-and-wait). The stream is
   * opened before the run is queued, so it hears every event as it comes and reads nothing
   * first: no status or replay read, which a stream of an existing run needs. Its first event,
   * the first attempt's `metadata` (seq 1), is sent as soon as the run is queued, the text its
   * worker will store; the worker's own is then the duplicate the reader skips. `signal` ends it.
   */
  async createAndStream(
    ctx: ServiceContext,
    request: RunCreateRequest,
    options: { modes?: readonly string[]; signal?: AbortSignal } = {},
  ): Promise<{ run: Run; events: RunStreamEvents }> {
    let reader: RunStreamReader | undefined;
    const open = (run: Run) =>
      openRunStream(streamSources(ctx), { runId: run.runId, threadId: run.threadId, ...options, afterSeq: FIRST_SEQ, openedBeforeQueued: true });
    try {
      const run = await createRun(ctx, request, { beforeQueued: (composed) => (reader ??= open(composed)) });
      return { run, events: startingWith(runMetadataEvent(run, FIRST_ATTEMPT, FIRST_SEQ), reader!) };
    } catch (error) {
      reader?.close();
      throw error;
    }
  },

  /**
   * /runs/wait: the last `values` event of a run's stream (from createAndStream with values among
   * its modes). Read from the stream rather than the thread, because a stateless run's thread is
   * deleted as soon as the run ends.
   */
  async lastValues(events: AsyncIterable<RunStreamEvent>): Promise<RunResult> {
    let values: RunResult = {};
    let error: unknown;
    // Read to the stream's end even after an error event: the stream ends once the run is
    // settled, so a client that reads the thread next sees its final status.
    for await (const event of events) {
      if (event.event === "values") values = JSON.parse(event.data);
      else if (event.event === "error") error = JSON.parse(event.data);
    }
    return error === undefined ? values : { __error__: error };
  },
};
