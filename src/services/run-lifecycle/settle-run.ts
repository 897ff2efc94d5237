import type { RunStreamEvent } from "../../domain/run-event.js";
import { deleteRunCheckpoints } from "../../db/sql/delete-run-checkpoints.js";
import { deleteHeldRun } from "../../db/sql/delete-held-run.js";
import { finishRun } from "../../db/sql/finish-run.js";
import { insertWebhookDelivery } from "../../db/sql/insert-webhook-delivery.js";
import { markThreadBusyIfActive } from "../../db/sql/mark-thread-busy-if-active.js";
import { releaseRuns } from "../../db/sql/release-runs.js";
import { settleThreadStatus } from "../../db/sql/settle-thread-status.js";
import { withRetry, WORKER_WRITE_PATIENCE_MS } from "../../db/retry.js";
import { withTransaction } from "../../db/tx.js";
import { coerceError, NotFoundError } from "../../domain/errors.js";
import type { JsonObject } from "../../domain/json.js";
import type { Run, RunStatusAndValues, RunStatus } from "../../domain/run.js";
import { describeUnstorableText, findUnstorableText, replaceUnstorableText } from "../../domain/storable-text.js";
import { sealFields } from "../field-encryption.js";
import { threadEncryptionContext } from "../../db/sql/thread-encryption-context.js";
import type { ServiceContext } from "../service-context.js";
import { threadStateService, type SettledThread } from "../thread-state.service.js";
import { threadsService } from "../threads.service.js";
import type { ExecutionResult } from "./execute-run.js";
import { announceRunEnd } from "./announce-run-end.js";
import { runWebhookMessage } from "./webhooks.js";

/** Storage of a run's output already under way (started when its graph ended). */
export interface RunOutput {
  /** Resolves once every event the run emitted is stored; absent: settleRun stores them. */
  eventsStored?: Promise<void>;
  /** The run's trace being stored (TraceRecorder.completeRun). */
  traced?: Promise<void>;
  /** Stored events not yet published (RunExecution.heldEvents): published once the outcome is. */
  heldEvents?: RunStreamEvent[];
}

/**
 * Persists what became of a claimed run and tells waiters. Order matters: stored events are
 * flushed before the status changes, because readers treat a finished run's stored stream as
 * complete; the thread's state is synced before `done`, because join answers from it. The run's
 * trace is stored by then too, so a run is reported finished with its trace complete.
 */
export async function settleRun(
  ctx: ServiceContext,
  workerId: string,
  run: Run,
  result: ExecutionResult,
  output: RunOutput = {},
): Promise<SettleResult> {
  await Promise.all([output.eventsStored ?? ctx.streaming.store.flush(), ctx.db.checkpointer.writesSettled(run.runId), output.traced]);

  if (result.kind === "released") {
    // Shutdown: back to the queue, to resume from its last checkpoint. After a lost lease this
    // matches nothing (the run is no longer ours), which is what we want.
    await releaseRuns(ctx.db.dataSource.manager, { workerId, runIds: [run.runId], now: ctx.now() });
    publishHeldEvents(ctx, output);
    return { threadHasActiveRuns: true };
  }

  if (result.kind === "rolled-back") {
    const deleted = await withTransaction(ctx.db, async (manager) => {
      if (!(await deleteHeldRun(manager, { runId: run.runId, workerId }))) return false;
      await deleteRunCheckpoints(manager, run.threadId, run.runId);
      return true;
    });
    if (!deleted) {
      ctx.log.warn({ runId: run.runId }, "rollback came after the run's lease was taken over; nothing deleted");
      return { threadHasActiveRuns: false };
    }
    await syncThread(ctx, run, false);
    await markThreadBusyIfActive(ctx.db.dataSource.manager, run.threadId);
    publishHeldEvents(ctx, output);
    announceRunEnd(ctx, run, "deleted");
    return { threadHasActiveRuns: true, finalStatus: "rolled_back" };
  }

  const settled = await recordOutcome(ctx, workerId, run, result);
  publishHeldEvents(ctx, output);
  if (!settled.recorded) {
    ctx.log.warn({ runId: run.runId }, "run finished after its lease was taken over; outcome discarded");
    return { threadHasActiveRuns: false };
  }
  announceRunEnd(ctx, run, settled.status, settled.outcome);

  if (settled.webhookQueued) ctx.streaming.signals.webhooksQueued();
  if (run.kwargs.onCompletion === "delete") {
    // A stateless run's temporary thread (and with it the run) goes once the run is over.
    // Deleting is idempotent (gone already is done), so a lost connection is retried; a thread
    // still left is logged at error: it stays until deleted by hand.
    await withRetry(() => threadsService.delete(ctx, run.threadId), { retryOn: "idempotent", maxElapsedMs: WORKER_WRITE_PATIENCE_MS }).catch(
      (error: unknown) => {
        if (error instanceof NotFoundError) return;
        ctx.log.error({ err: coerceError(error), threadId: run.threadId }, "could not delete a stateless run's thread; it stays");
      },
    );
  }
  return { threadHasActiveRuns: settled.threadHasActiveRuns, finalStatus: settled.status };
}

/** Live readers hear the held events (stored already) in their order, before the run's end. */
function publishHeldEvents(ctx: ServiceContext, output: RunOutput): void {
  for (const event of output.heldEvents?.splice(0) ?? []) ctx.streaming.bus.publish({ kind: "event", event });
}

/** finalStatus: how the run ended, when this settle ended it (not on release or a lost lease). */
export interface SettleResult {
  threadHasActiveRuns: boolean;
  finalStatus?: RunStatus | "rolled_back";
}

/**
 * Run and thread in one statement: its commit NOTIFYs `done`, and joiners then read the thread.
 * If the thread's state cannot be read (a graph whose getState throws), the outcome is still
 * recorded and the thread keeps its last values (recordOutcomeWithoutState): losing the run's
 * outcome would be worse.
 */
async function recordOutcome(
  ctx: ServiceContext,
  workerId: string,
  run: Run,
  result: Extract<ExecutionResult, { kind: "finished" }>,
): Promise<{
  recorded: boolean;
  threadHasActiveRuns: boolean;
  status: RunStatus;
  error: JsonObject | null;
  outcome?: RunStatusAndValues;
  webhookQueued?: boolean;
}> {
  // A graph's error message is a description, not a result: unstorable text in it is replaced.
  const outcome: { runId: string; workerId: string; status: RunStatus; error: JsonObject | null } = {
    runId: run.runId,
    workerId,
    status: result.status,
    error: replaceUnstorableText(result.error),
  };
  let thread: SettledThread;
  let sealedValues: unknown;
  try {
    thread = await threadStateService.readThreadAfterRun(ctx, run, { failed: result.status === "error", error: outcome.error });
    const unstorable = findUnstorableText({ values: thread.values, interrupts: thread.interrupts }, "output");
    if (unstorable) {
      // The checkpoints hold the output losslessly (as serialized blobs), but the run's recorded
      // result cannot: the run fails, naming where, and the thread keeps a copy with U+FFFD.
      const error = { error: "UnstorableOutput", message: `The graph's output cannot be stored: ${describeUnstorableText(unstorable)}` };
      ctx.log.warn({ runId: run.runId, path: unstorable.path }, error.message);
      outcome.status = "error";
      outcome.error = error;
      thread = replaceUnstorableText({ ...thread, status: "error", error });
    }
    sealedValues = await sealThreadValues(ctx, run.threadId, thread.values);
  } catch (error) {
    // Also when the encryption module cannot seal the values: the thread keeps its last ones.
    ctx.log.error({ err: error, threadId: run.threadId }, "could not read (or seal) the thread's state after a run");
    return recordOutcomeWithoutState(ctx, run, outcome);
  }
  // The webhook is queued by the statement that records the outcome: both commit, or neither.
  // Its updated_at is stamped as the statement is sent (settleRunOutcomes), the webhook's with it.
  const webhook = ctx.webhooksDisabled ? null : runWebhookMessage({ ...run, status: outcome.status, error: outcome.error });
  const settled = await ctx.db.runOutcomes.call({ ...outcome, thread: { threadId: run.threadId, ...thread, values: sealedValues }, webhook });
  return {
    ...settled,
    webhookQueued: settled.recorded && webhook !== null,
    status: outcome.status,
    error: outcome.error,
    outcome: { threadId: run.threadId, status: outcome.status, error: outcome.error, threadValues: thread.values },
  };
}

/**
 * The run's outcome when the thread's state after it cannot be read or sealed. The thread leaves
 * `busy` all the same (unless another run is queued): as `error`, since its stored values are
 * the ones before the run and no longer describe its checkpoints; `idle` would claim they do.
 * The next run or state edit that records values ends the error. Outcome, thread status and
 * webhook commit together, or none of them.
 */
async function recordOutcomeWithoutState(
  ctx: ServiceContext,
  run: Run,
  outcome: { runId: string; workerId: string; status: RunStatus; error: JsonObject | null },
): Promise<{ recorded: boolean; threadHasActiveRuns: boolean; status: RunStatus; error: JsonObject | null; webhookQueued: boolean }> {
  const now = ctx.now();
  const webhook = ctx.webhooksDisabled ? null : runWebhookMessage({ ...run, status: outcome.status, error: outcome.error });
  const threadError = {
    error: "ThreadStateNotRecorded",
    message: `The state run ${run.runId} left could not be read or encrypted; the thread's values are those before it (see the server log)`,
  };
  const settled = await withTransaction(ctx.db, async (transaction) => {
    if (!(await finishRun(transaction, { ...outcome, now }))) return { recorded: false, threadHasActiveRuns: false };
    if (webhook) await insertWebhookDelivery(transaction, { runId: run.runId, ...webhook(now) });
    const thread = await settleThreadStatus(transaction, { threadId: run.threadId, status: "error", error: threadError, now });
    return { recorded: true, ...thread };
  });
  return { ...settled, status: outcome.status, error: outcome.error, webhookQueued: settled.recorded && webhook !== null };
}

/**
 * The values a run leaves, sealed with the thread's encryption context when the deployment has
 * JSON handlers. A handler that fails here is handled like a state that cannot be read: the
 * outcome is recorded and the thread keeps its last values; nothing is written in clear.
 */
async function sealThreadValues(ctx: ServiceContext, threadId: string, values: unknown): Promise<unknown> {
  if (!ctx.encryption || values === null) return values;
  const context = await threadEncryptionContext(ctx.db.dataSource.manager, threadId, await ctx.encryption.contextMetadata());
  if (context === null) return values; // deleted meanwhile: hangar_settle_run records the run alone
  return (await sealFields(ctx, "thread", { values }, context)).fields.values ?? null;
}

async function syncThread(ctx: ServiceContext, run: Run, failed: boolean, error?: unknown): Promise<void> {
  try {
    await threadStateService.syncThread(ctx, run.threadId, { failed, error });
  } catch (syncError) {
    ctx.log.error({ err: syncError, threadId: run.threadId }, "could not refresh the thread after a run");
  }
}
