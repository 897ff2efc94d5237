import type { RunStreamEvent } from "../../domain/run-event.js";
import { performance } from "node:perf_hooks";
import { withRetry } from "../../db/retry.js";
import { coerceError } from "../../domain/errors.js";
import type { Run } from "../../domain/run.js";
import type { TraceRecorder } from "../traces/trace-recorder.js";
import type { ServiceContext } from "../service-context.js";
import { openRun } from "../field-encryption.js";
import { executeRun } from "./execute-run.js";
import { settleRun, type RunOutput } from "./settle-run.js";

/** A run a worker has just claimed, and what it holds it with. */
export interface ClaimedRun {
  run: Run;
  /** The claim found no checkpoint on the run's thread (claim-runs.ts): its first reads need no query. */
  threadIsEmpty: boolean;
  /** The worker whose lease guards every write of the settle. */
  workerId: string;
  /** How long the lease lasts: settling is retried for at most that long. */
  leaseMs: number;
  /** Aborted by the worker on cancel, shutdown or a lost lease (the reason is an AbortReason). */
  signal: AbortSignal;
  tracing?: TraceRecorder;
}

/**
 * One attempt at a claimed run, from the claim to its release (docs/run-lifecycle.md): execute
 * (resuming from the last checkpoint when an earlier attempt was cut off), settle, release.
 * Never throws; answers whether the run's thread has more runs queued (or may have), which the
 * worker uses to decide whether to claim again. The worker keeps only claiming, leases and the
 * abort signal.
 *
 * The process-local shortcuts an attempt takes are set up here before its first await (so in
 * the same turn as the claim) and dropped when it ends, whatever the outcome.
 */
export async function attemptRun(ctx: ServiceContext, claimed: ClaimedRun): Promise<boolean> {
  if (ctx.encryption && claimed.run.encryptionContext) {
    // Sealed at rest: the run executes with its input, config and context opened.
    try {
      claimed = { ...claimed, run: await openRun(ctx, claimed.run) };
    } catch (error) {
      return failUnopenedRun(ctx, claimed, error);
    }
  }
  const { run } = claimed;
  const { checkpointer } = ctx.db;
  if (claimed.threadIsEmpty) checkpointer.expectEmptyThread(run.runId, run.threadId);
  if (run.kwargs.durability !== "sync") checkpointer.acknowledgeWhenQueued(run.runId);
  ctx.streaming.signals.workerExecutes(run.runId, run.threadId);
  ctx.metrics?.runStarted(run, ctx.now());
  try {
    return await executeAndSettle(ctx, claimed);
  } finally {
    ctx.streaming.signals.workerReleased(run.runId);
    checkpointer.forgetRun(run.runId);
  }
}

async function executeAndSettle(ctx: ServiceContext, claimed: ClaimedRun): Promise<boolean> {
  const { run, tracing } = claimed;
  // Made only when a settle fails: pino serializes a child's fields when it is made, which every
  // run would otherwise pay for a logger it almost never uses.
  const log = () => ctx.log.child({ runId: run.runId, threadId: run.threadId, attempt: run.attempt });
  const startedAt = performance.now();
  try {
    const firstSeq = run.attempt > 1 ? await nextSeqAfterEarlierAttempts(ctx, run) : 1;
    // The run's events and trace are stored while its last checkpoints commit, not after: one
    // group-commit round less between the graph's end and join's answer.
    let storing: RunOutput | undefined;
    const storeOutput = () => (storing ??= { eventsStored: ctx.streaming.store.flush(), traced: tracing?.completeRun() });
    const heldEvents: RunStreamEvent[] = [];
    const result = await executeRun(ctx, {
      run,
      signal: claimed.signal,
      firstSeq,
      callbacks: tracing ? [tracing.tracerFor(run)] : [],
      onGraphEnd: storeOutput,
      heldEvents,
    });
    const started = storeOutput();
    // Only a success emits nothing after the graph's end; any other outcome may have (an `error`
    // event), so settleRun flushes the events again.
    const succeeded = result.kind === "finished" && result.status === "success";
    const output: RunOutput = { ...(succeeded ? started : { traced: started.traced }), heldEvents };
    // Settling is idempotent (every write is guarded by this worker's lease), so a lost
    // connection is retried at once and for as long as the lease lasts, not left to its expiry
    // (which would run the run's last nodes again on another attempt).
    const settled = await withRetry(() => settleRun(ctx, claimed.workerId, run, result, output), {
      retryOn: "idempotent",
      maxElapsedMs: claimed.leaseMs,
      onRetry: (error, attempt) => log().warn({ err: coerceError(error), attempt }, "settling a run failed; retrying"),
    });
    if (settled.finalStatus) ctx.metrics?.runFinished(run.kwargs.graphId, settled.finalStatus, (performance.now() - startedAt) / 1000);
    return settled.threadHasActiveRuns;
  } catch (error) {
    // Not a lost connection, or one that outlasted the lease: the lease expires and another
    // attempt runs it from its last checkpoint.
    log().error({ err: coerceError(error) }, "could not settle a run; it will be retried after its lease expires");
    return true;
  }
}

/**
 * A run whose kwargs the encryption module cannot open cannot execute: it fails (its thread
 * leaves busy as error, settle-run.ts), rather than going back to the queue to fail again on
 * every attempt. Nothing sealed is used: no webhook (its URL is sealed), its thread is kept.
 */
async function failUnopenedRun(ctx: ServiceContext, claimed: ClaimedRun, error: unknown): Promise<boolean> {
  ctx.log.error({ err: coerceError(error), runId: claimed.run.runId }, "could not open a run's kwargs; the run fails");
  const run = { ...claimed.run, kwargs: { ...claimed.run.kwargs, webhook: null, onCompletion: null } };
  const result = {
    kind: "finished",
    status: "error",
    error: { error: "EncryptionError", message: "The deployment's encryption module could not decrypt the run's kwargs; see the server log" },
  } as const;
  try {
    return (await withRetry(() => settleRun(ctx, claimed.workerId, run, result), { retryOn: "idempotent", maxElapsedMs: claimed.leaseMs }))
      .threadHasActiveRuns;
  } catch (settleError) {
    ctx.log.error({ err: coerceError(settleError), runId: run.runId }, "could not settle a run whose kwargs did not open; retried after its lease expires");
    return true;
  }
}

/**
 * Resuming: a run taken over from a worker that stopped renewing its lease (attempt > 1) goes on
 * from its last committed checkpoint (LangGraph sees its own run_id there, execute-run.ts), and
 * continues its stream numbering, so replay never mixes two attempts' ids.
 */
async function nextSeqAfterEarlierAttempts(ctx: ServiceContext, run: Run): Promise<number> {
  const stored = await ctx.streaming.store.read(run.runId, run.threadId, 0);
  return (stored.at(-1)?.seq ?? 0) + 1;
}
