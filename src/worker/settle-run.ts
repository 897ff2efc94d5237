import { deleteRunCheckpoints } from "../db/sql/delete-run-checkpoints.js";
import { deleteRuns } from "../db/sql/delete-runs.js";
import { finishRun } from "../db/sql/finish-run.js";
import { markThreadBusyIfActive } from "../db/sql/mark-thread-busy-if-active.js";
import { releaseRuns } from "../db/sql/release-runs.js";
import { withTransaction } from "../db/tx.js";
import type { Run } from "../domain/run.js";
import type { ServiceContext } from "../services/service-context.js";
import { threadStateService } from "../services/thread-state.service.js";
import { threadsService } from "../services/threads.service.js";
import type { ExecutionResult } from "./execute-run.js";
import { sendRunWebhook } from "./webhooks.js";

/**
 * Persists what became of a claimed run and tells waiters. Order matters: stored events are
 * flushed before the status changes, because readers treat a finished run's stored stream as
 * complete; the thread's state is synced before `done`, because join answers from it.
 */
export async function settleRun(ctx: ServiceContext, workerId: string, run: Run, result: ExecutionResult): Promise<void> {
  const { bus, store, signals } = ctx.streaming;
  await Promise.all([store.flush(), ctx.db.checkpointer.writesSettled(run.runId)]);

  if (result.kind === "released") {
    // Shutdown: back to the queue, to resume from its last checkpoint. After a lost lease this
    // matches nothing (the run is no longer ours), which is what we want.
    await releaseRuns(ctx.db.dataSource.manager, { workerId, runIds: [run.runId], now: ctx.now() });
    return;
  }

  if (result.kind === "rolled-back") {
    await withTransaction(ctx.db, async (manager) => {
      await deleteRunCheckpoints(manager, run.threadId, run.runId);
      await deleteRuns(manager, [run.runId]);
    });
    await syncThread(ctx, run, false);
    await markThreadBusyIfActive(ctx.db.dataSource.manager, run.threadId);
    bus.publish({ kind: "end", runId: run.runId, threadId: run.threadId, status: "deleted" });
    signals.runDone(run.runId);
    return;
  }

  // The thread first: the status change below wakes joiners (NOTIFY on commit), who read it.
  await syncThread(ctx, run, result.status === "error", result.error);
  const recorded = await finishRun(ctx.db.dataSource.manager, {
    runId: run.runId,
    workerId,
    status: result.status,
    error: result.error,
    now: ctx.now(),
  });
  if (!recorded) {
    ctx.log.warn({ runId: run.runId }, "run finished after its lease was taken over; outcome discarded");
    return;
  }
  // Runs still queued on the thread (enqueue) keep it busy.
  await markThreadBusyIfActive(ctx.db.dataSource.manager, run.threadId);
  bus.publish({ kind: "end", runId: run.runId, threadId: run.threadId, status: result.status });
  signals.runDone(run.runId);

  if (run.kwargs.webhook) sendRunWebhook(ctx, run.kwargs.webhook, { ...run, status: result.status, error: result.error });
  if (run.kwargs.onCompletion === "delete") {
    // A stateless run's temporary thread (and with it the run) goes once the run is over.
    await threadsService.delete(ctx, run.threadId).catch((error: unknown) => {
      ctx.log.warn({ err: error, threadId: run.threadId }, "could not delete a stateless run's thread");
    });
  }
}

async function syncThread(ctx: ServiceContext, run: Run, failed: boolean, error?: unknown): Promise<void> {
  try {
    await threadStateService.syncThread(ctx, run.threadId, { failed, error });
  } catch (syncError) {
    ctx.log.error({ err: syncError, threadId: run.threadId }, "could not refresh the thread after a run");
  }
}
