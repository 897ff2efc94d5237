import { connectionOfTransaction, withTransaction } from "../../db/tx.js";
import type { Run } from "../../domain/run.js";
import type { RunCreateRequest } from "../../domain/run-request.js";
import { findAssistantForRun } from "../assistants.service.js";
import type { ServiceContext } from "../service-context.js";
import { threadStateService } from "../thread-state.service.js";
import { announceRunQueued, authorizeRunCreation, queueRunInTransaction } from "./create-run.js";

export interface ContinueThreadInput {
  /** The run to start: on an existing thread, from `request.checkpointId` (the latest when null). */
  request: RunCreateRequest & { threadId: string };
  /** An edit written first at that checkpoint, as the node `asNode` would return it; null: replay as it is. */
  edit: { values: unknown; asNode?: string } | null;
}

export interface ContinuedThread {
  run: Run;
  /** The checkpoint the run starts from: the edit's, or the one asked for. */
  checkpointId: string | null;
  editCheckpointId: string | null;
}

/**
 * Time travel (what LangGraph Studio calls edit, fork and replay): an optional state edit at a
 * checkpoint, then a run from the resulting checkpoint, all or nothing. Everything that can be
 * refused without writing is checked first (the assistant, the checkpoint, both authorizations);
 * then one transaction holds the thread's row lock, writes the edit (its checkpoints on the
 * transaction's connection) and queues the run through the enqueue statement. A run the
 * multitask rule refuses (the thread is busy) rolls the edit back with it.
 */
export async function continueThread(ctx: ServiceContext, input: ContinueThreadInput): Promise<ContinuedThread> {
  const { request, edit } = input;
  const assistant = await findAssistantForRun(ctx, request.assistantId);
  // A run from a checkpoint LangGraph cannot find would start empty: refuse it first.
  if (request.checkpointId != null) await threadStateService.getStateAt(ctx, request.threadId, { checkpointId: request.checkpointId });
  const authorized = await authorizeRunCreation(ctx, request, ctx.now());

  const done = await withTransaction(ctx.db, async (manager) => {
    const tx = { manager, checkpointer: ctx.db.checkpointer.inTransaction(await connectionOfTransaction(manager)) };
    const edited = edit
      ? await threadStateService.editState(
          ctx,
          request.threadId,
          { values: edit.values ?? null, asNode: edit.asNode, checkpointId: request.checkpointId ?? undefined },
          tx,
        )
      : null;
    const checkpointId = edited?.checkpoint.checkpointId ?? request.checkpointId ?? null;
    const runRequest = { ...authorized, input: { ...authorized.input, checkpointId } };
    const queued = await queueRunInTransaction(ctx, manager, runRequest, assistant);
    return { queued, edited, checkpointId };
  });
  if (done.edited) threadStateService.publishStateEdit(ctx, done.edited.thread);
  announceRunQueued(ctx, done.queued);
  return { run: done.queued.run, checkpointId: done.checkpointId, editCheckpointId: done.edited?.checkpoint.checkpointId ?? null };
}
