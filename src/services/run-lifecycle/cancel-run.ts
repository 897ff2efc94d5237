import { deleteRuns } from "../../db/sql/delete-runs.js";
import type { RunsCancelledOnEnqueue } from "../../db/sql/enqueue-rows.js";
import { requestRunCancel } from "../../db/sql/request-run-cancel.js";
import { selectActiveRunIds } from "../../db/sql/select-active-run-ids.js";
import { selectRuns } from "../../db/sql/select-runs.js";
import { withTransaction } from "../../db/tx.js";
import { ConflictError, NotFoundError } from "../../domain/errors.js";
import { isRunFinished, type CancelAction, type Run } from "../../domain/run.js";
import { scopeOf } from "../access-scope.js";
import { requireRunId, runsService } from "../runs.service.js";
import type { ServiceContext } from "../service-context.js";
import { threadStateService } from "../thread-state.service.js";
import { announceRunEnd } from "./announce-run-end.js";

/**
 * Cancelling and deleting runs (docs/run-lifecycle.md): who may end a run that its worker does
 * not settle, and how the worker holding a running one is told.
 */

/** Runs a cancellation stopped: pending ones end at once; running ones wait for their worker. */
export interface CancelEffects {
  endedPending: Array<{ runId: string; threadId: string }>;
  signalledRunning: string[];
}

/** What a multitask interrupt / rollback on `threadId` cancelled (hangar_enqueue_run's answer). */
export function cancelEffectsOnThread(threadId: string, cancelled: RunsCancelledOnEnqueue): CancelEffects {
  return {
    endedPending: cancelled.endedRunIds.map((runId) => ({ runId, threadId })),
    signalledRunning: cancelled.signalledRunIds,
  };
}

/** Cancels pending or running runs. Finished runs are left as they are. */
export async function cancelRuns(ctx: ServiceContext, input: { runIds: string[]; action: CancelAction }): Promise<Run[]> {
  const runIds = input.runIds.map(requireRunId);
  const scope = await scopeOf(ctx, "threads", "update", { run_ids: runIds, action: input.action });
  const effects = await withTransaction(ctx.db, async (manager): Promise<CancelEffects> => {
    const runs = (await selectRuns(manager, runIds, scope)).filter((run) => !isRunFinished(run.status));
    if (runs.length === 0) return { endedPending: [], signalledRunning: [] };
    const changed = await requestRunCancel(manager, { runIds: runs.map((run) => run.runId), action: input.action, now: ctx.now() });
    return {
      endedPending: changed.filter((change) => change.ended),
      signalledRunning: changed.filter((change) => !change.ended).map((change) => change.runId),
    };
  });
  announceCancellations(ctx, effects);
  await refreshThreadsLeftIdle(ctx, effects.endedPending.map((run) => run.threadId));
  return runsService.getMany(ctx, runIds).then((runs) => runs.filter((run): run is Run => run !== null));
}

/** Deletes a finished or pending run; a running one must be cancelled first. */
export async function deleteRun(ctx: ServiceContext, threadId: string, runId: string): Promise<void> {
  const scope = await scopeOf(ctx, "threads", "delete", { thread_id: threadId, run_id: runId });
  const [run] = await selectRuns(ctx.db.dataSource.manager, [requireRunId(runId)], scope);
  if (!run || run.threadId !== threadId.toLowerCase()) throw new NotFoundError(`Run '${runId}' not found on thread '${threadId}'`);
  if (run.status === "running") throw new ConflictError(`Run '${runId}' is running; cancel it before deleting it`);
  await deleteRuns(ctx.db.dataSource.manager, [run.runId]);
  announceRunEnd(ctx, run, "deleted");
  if (run.status === "pending") await refreshThreadsLeftIdle(ctx, [run.threadId]);
}

/**
 * A run that ends without ever starting (cancelled or deleted while pending) has no worker to
 * settle it, so its thread would stay `busy`: its status is recomputed from its state here,
 * unless other runs are still queued on it.
 */
async function refreshThreadsLeftIdle(ctx: ServiceContext, threadIds: string[]): Promise<void> {
  for (const threadId of new Set(threadIds)) {
    const stillActive = await selectActiveRunIds(ctx.db.dataSource.manager, { statuses: ["pending", "running"], threadId });
    if (stillActive.length === 0) await threadStateService.syncThread(ctx, threadId);
  }
}

/** After commit: wake the workers holding cancelled runs, and end the streams of pending ones. */
export function announceCancellations(ctx: ServiceContext, effects: CancelEffects): void {
  for (const runId of effects.signalledRunning) ctx.streaming.signals.cancelRequested(runId);
  for (const run of effects.endedPending) {
    announceRunEnd(ctx, run, "interrupted");
  }
}
