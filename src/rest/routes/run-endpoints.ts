import type { Context } from "hono";
import { coerceError } from "../../domain/errors.js";
import type { HttpEnv } from "../../http/http-env.js";
import { sendHeadersWithFirstChunk } from "../../http/headers-with-first-chunk.js";
import { runResultsService } from "../../services/run-results.service.js";
import { runsService } from "../../services/runs.service.js";
import { cancelRuns } from "../../services/run-lifecycle/cancel-run.js";
import type { ServiceContext } from "../../services/service-context.js";
import { afterSeqOfLastEventId, sseResponse } from "../../streaming/sse-response.js";
import { createRunFromWire } from "../run-wire.js";
import type { RunCreate } from "../schemas/runs.js";

/**
 * The create-and-stream and create-and-wait flows, shared by thread runs and stateless runs.
 * `threadId` null means stateless (a temporary thread).
 */

/**
 * on_disconnect=cancel: the client is gone, so a failure has nobody to answer; it is logged at
 * error (the run then goes on to its end), not dropped.
 */
function cancelAfterDisconnect(ctx: ServiceContext, runId: string): () => void {
  return () =>
    void cancelRuns(ctx, { runIds: [runId], action: "interrupt" }).catch((error: unknown) => {
      ctx.log.error({ err: coerceError(error), runId }, "could not cancel a run whose client disconnected; it runs on");
    });
}

function runLocation(threadId: string, runId: string, stateless: boolean): string {
  return stateless ? `/runs/${runId}` : `/threads/${threadId}/runs/${runId}`;
}

/** POST .../runs/stream: queue the run, answer with its SSE stream until it ends. */
export async function streamNewRun(
  c: Context<HttpEnv>,
  ctx: ServiceContext,
  body: RunCreate,
  threadId: string | null,
  headers: Record<string, string>,
) {
  const abort = new AbortController();
  const { run, events } = await runResultsService.createAndStream(ctx, createRunFromWire(body, threadId, { headers }), { signal: abort.signal });
  // The run's `metadata`, which createAndStream yields at once: sent in one write with the headers.
  const opening = await events.next();
  const location = runLocation(run.threadId, run.runId, threadId === null);
  const cancelOnDisconnect = (body.on_disconnect ?? "continue") === "cancel";
  sendHeadersWithFirstChunk(c);
  return sseResponse(events, {
    abort,
    opening: opening.done ? undefined : opening.value,
    openStreams: ctx.metrics?.sseStreams,
    headers: { "Content-Location": location, Location: `${location}/stream` },
    onDisconnect: cancelOnDisconnect
      ? cancelAfterDisconnect(ctx, run.runId)
      : undefined,
  });
}

/** POST .../runs/wait: queue the run, answer with its final values (or `__error__`). */
export async function waitForNewRun(
  c: Context<HttpEnv>,
  ctx: ServiceContext,
  body: RunCreate,
  threadId: string | null,
  headers: Record<string, string>,
) {
  const request = createRunFromWire(body, threadId, { forceModes: ["values"], headers });
  const { run, events } = await runResultsService.createAndStream(ctx, request, { modes: ["values"], signal: c.req.raw.signal });
  const cancelOnDisconnect = (body.on_disconnect ?? "continue") === "cancel";
  const stopWatching = cancelOnDisconnect ? watchDisconnect(c, cancelAfterDisconnect(ctx, run.runId)) : undefined;
  try {
    const result = await runResultsService.lastValues(events);
    c.header("Content-Location", runLocation(run.threadId, run.runId, threadId === null));
    return c.json(result);
  } finally {
    stopWatching?.();
  }
}

/** GET /threads/{thread_id}/runs/{run_id}/join: wait for the run to end, answer with its values. */
export async function joinRun(
  c: Context<HttpEnv>,
  ctx: ServiceContext,
  threadId: string,
  runId: string,
  query: { cancel_on_disconnect: boolean },
) {
  let stopWatching: (() => void) | undefined;
  if (query.cancel_on_disconnect) {
    // The run must exist on this thread, visible to the caller, before a disconnect may cancel it.
    const run = await runsService.get(ctx, threadId, runId);
    stopWatching = watchDisconnect(c, cancelAfterDisconnect(ctx, run.runId));
  }
  try {
    return c.json(await runResultsService.join(ctx, threadId, runId, c.req.raw.signal));
  } finally {
    stopWatching?.();
  }
}

/**
 * Calls `onDisconnect` once if the client goes away before the answer is sent (also when it left
 * while the request was still being read); returns the function that stops watching.
 */
function watchDisconnect(c: Context<HttpEnv>, onDisconnect: () => void): () => void {
  const signal = c.req.raw.signal;
  if (signal.aborted) {
    onDisconnect();
    return () => {};
  }
  signal.addEventListener("abort", onDisconnect, { once: true });
  return () => signal.removeEventListener("abort", onDisconnect);
}

/** GET .../runs/{run_id}/stream: join a live or finished run's stream (Last-Event-ID honoured). */
export function joinRunStream(
  c: Context<HttpEnv>,
  ctx: ServiceContext,
  run: { runId: string; threadId: string },
  query: { stream_mode?: string[]; cancel_on_disconnect: boolean },
) {
  const modes = query.stream_mode;
  const abort = new AbortController();
  return sseResponse(
    runResultsService.stream(ctx, {
      runId: run.runId,
      threadId: run.threadId,
      afterSeq: afterSeqOfLastEventId(c.req.header("Last-Event-ID")),
      modes,
      signal: abort.signal,
    }),
    {
      abort,
      openStreams: ctx.metrics?.sseStreams,
      onDisconnect: query.cancel_on_disconnect
        ? cancelAfterDisconnect(ctx, run.runId)
        : undefined,
    },
  );
}

/**
 * A join-stream of a run that does not exist (or that the caller may not see) answers as
 * LangGraph's server does: a stream with one `error` event whose message starts with "404",
 * which the SDK's joinStream yields instead of throwing.
 */
export function notFoundStream(error: Error): Response {
  const event = { runId: "", threadId: "", seq: 1, event: "error", data: JSON.stringify({ error: "NotFoundError", message: `404: ${error.message}` }) };
  return sseResponse(
    (async function* () {
      yield event;
    })(),
    { abort: new AbortController() },
  );
}
