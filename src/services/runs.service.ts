import { deleteRuns } from "../db/sql/delete-runs.js";
import { insertRun } from "../db/sql/insert-run.js";
import { listThreadRuns } from "../db/sql/list-thread-runs.js";
import { lockActiveRuns } from "../db/sql/lock-active-runs.js";
import { lockThread } from "../db/sql/lock-thread.js";
import { markThreadRunning } from "../db/sql/mark-thread-running.js";
import { requestRunCancel } from "../db/sql/request-run-cancel.js";
import { selectActiveRunIds } from "../db/sql/select-active-run-ids.js";
import { selectRuns } from "../db/sql/select-runs.js";
import { threadExists } from "../db/sql/thread-exists.js";
import { withTransaction } from "../db/tx.js";
import { ConflictError, NotFoundError, ThreadBusyError } from "../domain/errors.js";
import { isUuid, newId } from "../domain/ids.js";
import type { JsonObject } from "../domain/json.js";
import { composeRun, isRunFinished, type CancelAction, type Run, type RunKwargs, type RunRequest, type RunStatus } from "../domain/run.js";
import type { Assistant } from "../domain/assistant.js";
import { assistantSnapshots } from "./assistant-snapshots.js";
import { assistantsService, noAssistantFound, resolveAssistantId } from "./assistants.service.js";
import { inKeyOrder } from "./key-order.js";
import { threadStateService } from "./thread-state.service.js";
import type { ServiceContext } from "./service-context.js";

/** A run request in domain terms; the transports map their payloads to this. */
export interface CreateRunInput extends RunRequest {
  /** null: a stateless run on a temporary thread. */
  threadId: string | null;
  /** An assistant id or a graph name. */
  assistantId: string;
  metadata: JsonObject;
  /** Stateless runs only: what happens to their temporary thread afterwards. */
  onCompletion: RunKwargs["onCompletion"];
  ifNotExists: "create" | "reject";
  afterSeconds: number;
}

/** Runs a cancellation stopped: pending ones end at once; running ones wait for their worker. */
export interface CancelEffects {
  endedPending: Run[];
  signalledRunning: string[];
}

export function requireRunId(runId: string): string {
  if (!isUuid(runId)) throw new NotFoundError(`Run '${runId}' not found: run ids are UUIDs`);
  return runId.toLowerCase();
}

export const runsService = {
  /**
   * Queues a run. Multitask rules are applied under the thread's row lock: `reject` refuses when
   * the thread has a pending or running run; `interrupt` / `rollback` cancel those runs (the
   * worker stops running ones; rollback also erases what they wrote); `enqueue` just queues. The
   * worker never runs two runs of one thread at once, so the new run starts after the old ends.
   */
  async create(ctx: ServiceContext, input: CreateRunInput): Promise<Run> {
    const now = ctx.now();
    const threadId = input.threadId === null ? newId() : requireThreadIdForRun(input.threadId);
    const enqueue = async (assistant: Assistant, checked: boolean) => {
      const run = composeRun({
        assistant,
        request: input,
        threadId,
        metadata: input.metadata,
        onCompletion: input.threadId === null ? (input.onCompletion ?? "delete") : null,
        now,
        runAfter: new Date(now.getTime() + input.afterSeconds * 1000),
      });
      const threadMetadata = { graph_id: assistant.graphId, assistant_id: assistant.assistantId };
      const queued = await ctx.db.runQueue.call({
        run,
        thread: { metadata: threadMetadata, createIfMissing: input.threadId === null || input.ifNotExists === "create" },
        assistantSeen: checked ? { version: assistant.version, updatedAt: assistant.updatedAt } : null,
      });
      return { run, threadMetadata, queued };
    };

    // The common case (no run active on the thread, or enqueue) is one round trip: the assistant
    // comes from the last run composed with it, and the enqueue checks it is still current. A
    // multitask decision that cancels runs takes the transaction below.
    const snapshot = assistantSnapshots.get(ctx.db, resolveAssistantId(ctx, input.assistantId));
    let attempt = snapshot ? await enqueue(snapshot, true) : null;
    if (!attempt || attempt.queued.outcome === "assistant-changed") {
      const assistant = await assistantsService.get(ctx, input.assistantId).catch((error: unknown) => {
        throw error instanceof NotFoundError ? noAssistantFound(input.assistantId) : error;
      });
      assistantSnapshots.remember(ctx.db, assistant);
      attempt = await enqueue(assistant, false);
    }
    const { run, threadMetadata, queued } = attempt;
    if (queued.outcome === "thread-missing") throw new NotFoundError(`Thread '${threadId}' not found`);
    if (queued.outcome === "busy") {
      if (input.multitaskStrategy === "reject") throw new ThreadBusyError(threadId);
      announceCancellations(ctx, await createCancellingActiveRuns(ctx, run, input, threadMetadata));
    }
    ctx.streaming.signals.runCreated(run.runId, run.threadId);
    ctx.streaming.signals.runPending(run.runAfter);
    return run;
  },

  async get(ctx: ServiceContext, threadId: string | null, runId: string): Promise<Run> {
    const [run] = await selectRuns(ctx.db.dataSource.manager, [requireRunId(runId)]);
    if (!run || (threadId !== null && run.threadId !== threadId.toLowerCase())) {
      throw new NotFoundError(`Run '${runId}' not found${threadId ? ` on thread '${threadId}'` : ""}`);
    }
    return run;
  },

  async getMany(ctx: ServiceContext, runIds: readonly string[]): Promise<(Run | null)[]> {
    const valid = runIds.filter(isUuid).map((id) => id.toLowerCase());
    const runs = valid.length > 0 ? await selectRuns(ctx.db.dataSource.manager, valid) : [];
    return inKeyOrder(runIds.map((id) => id.toLowerCase()), runs, (run) => run.runId);
  },

  async list(
    ctx: ServiceContext,
    query: { threadId: string; status?: RunStatus; limit: number; offset: number },
  ): Promise<Run[]> {
    const threadId = requireThreadIdForRun(query.threadId);
    const runs = await listThreadRuns(ctx.db.dataSource.manager, { ...query, threadId });
    if (runs.length === 0 && query.offset === 0) {
      // An unknown thread is a 404, not an empty list.
      if (!(await threadExists(ctx.db.dataSource.manager, threadId))) throw new NotFoundError(`Thread '${query.threadId}' not found`);
    }
    return runs;
  },

  /** Cancels pending or running runs. Finished runs are left as they are. */
  async cancel(ctx: ServiceContext, input: { runIds: string[]; action: CancelAction }): Promise<Run[]> {
    const runIds = input.runIds.map(requireRunId);
    const effects = await withTransaction(ctx.db, async (manager) => {
      const runs = (await selectRuns(manager, runIds)).filter((run) => !isRunFinished(run.status));
      return cancelLocked(manager, runs, input.action, ctx.now());
    });
    announceCancellations(ctx, effects);
    await refreshThreadsLeftIdle(ctx, effects.endedPending.map((run) => run.threadId));
    return runsService.getMany(ctx, runIds).then((runs) => runs.filter((run): run is Run => run !== null));
  },

  /** Pending and running runs, optionally of one thread and status (bulk cancel). */
  async listActive(ctx: ServiceContext, filter: { threadId?: string; status?: "pending" | "running" | "all" }): Promise<Run[]> {
    const statuses = filter.status === "pending" || filter.status === "running" ? [filter.status] : ["pending", "running"];
    const threadId = filter.threadId ? requireThreadIdForRun(filter.threadId) : null;
    const runIds = await selectActiveRunIds(ctx.db.dataSource.manager, { statuses, threadId });
    const runs = await runsService.getMany(ctx, runIds);
    return runs.filter((run): run is Run => run !== null);
  },

  /** Deletes a finished or pending run; a running one must be cancelled first. */
  async delete(ctx: ServiceContext, threadId: string, runId: string): Promise<void> {
    const run = await runsService.get(ctx, threadId, runId);
    if (run.status === "running") throw new ConflictError(`Run '${runId}' is running; cancel it before deleting it`);
    await deleteRuns(ctx.db.dataSource.manager, [run.runId]);
    ctx.streaming.bus.publish({ kind: "end", runId: run.runId, threadId: run.threadId, status: "deleted" });
    ctx.streaming.signals.runDone(run.runId);
    if (run.status === "pending") await refreshThreadsLeftIdle(ctx, [run.threadId]);
  },
};

function requireThreadIdForRun(threadId: string): string {
  if (!isUuid(threadId)) throw new NotFoundError(`Thread '${threadId}' not found: thread ids are UUIDs`);
  return threadId.toLowerCase();
}

/**
 * interrupt / rollback on a busy thread: under the thread's lock, cancels its active runs and
 * queues the new one. Re-reads everything, since the active runs may have ended meanwhile.
 */
async function createCancellingActiveRuns(
  ctx: ServiceContext,
  run: Run,
  input: CreateRunInput,
  threadMetadata: JsonObject,
): Promise<CancelEffects> {
  const strategy = input.multitaskStrategy;
  return withTransaction(ctx.db, async (manager): Promise<CancelEffects> => {
    const thread = await lockThread(manager, run.threadId);
    if (!thread) throw new NotFoundError(`Thread '${run.threadId}' not found`);
    const active = await lockActiveRuns(manager, run.threadId);
    const effects =
      active.length > 0 && (strategy === "interrupt" || strategy === "rollback")
        ? await cancelLocked(manager, active, strategy, run.createdAt)
        : { endedPending: [], signalledRunning: [] };
    await insertRun(manager, run);
    await markThreadRunning(manager, { threadId: run.threadId, metadata: threadMetadata, now: run.createdAt });
    return effects;
  });
}

/** Inside the caller's transaction: stops the given runs the way `action` asks. */
export async function cancelLocked(
  manager: Parameters<typeof requestRunCancel>[0],
  runs: Run[],
  action: CancelAction,
  now: Date,
): Promise<CancelEffects> {
  if (runs.length === 0) return { endedPending: [], signalledRunning: [] };
  const changed = await requestRunCancel(manager, { runIds: runs.map((run) => run.runId), action, now });
  const endedIds = new Set(changed.filter((change) => change.status === "interrupted").map((change) => change.runId));
  const endedPending = runs.filter((run) => endedIds.has(run.runId));
  // A rolled-back run that never started wrote nothing: deleting the row is the whole rollback.
  if (action === "rollback" && endedPending.length > 0) await deleteRuns(manager, endedPending.map((run) => run.runId));
  const signalledRunning = changed.filter((change) => change.status === "running").map((change) => change.runId);
  return { endedPending, signalledRunning };
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
    ctx.streaming.bus.publish({ kind: "end", runId: run.runId, threadId: run.threadId, status: "interrupted" });
    ctx.streaming.signals.runDone(run.runId);
  }
}
