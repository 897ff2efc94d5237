import { assistantsService } from "../../services/assistants.service.js";
import { createRun } from "../../services/run-lifecycle/create-run.js";
import { threadStateService } from "../../services/thread-state.service.js";
import { builder } from "../builder.js";
import { omitNull } from "../input-values.js";
import { createRunInputOf } from "./run/mutations.js";
import { RunRef, StreamMode } from "./run/run.js";

/**
 * Time travel on a thread (what LangGraph Studio calls edit, fork and replay): continue from
 * any checkpoint, after optionally editing the state there. The edit is updateThreadState's
 * (a new checkpoint whose parent is the chosen one, attributed to `asNode`); the run starts from
 * the resulting checkpoint, so continuing from an older checkpoint starts a new branch and
 * leaves the old one in the history.
 */
builder.relayMutationField(
  "continueThread",
  {
    inputFields: (t) => ({
      threadId: t.id({ required: true }),
      assistantId: t.id({ required: true, description: "An assistant UUID, or a deployed graph's name." }),
      checkpointId: t.string({ description: "The checkpoint to continue from; the latest when omitted." }),
      values: t.field({
        type: "JSON",
        description: "An edit written first, as the node `asNode` would return it; omitted: replay the checkpoint as it is.",
      }),
      asNode: t.string({ description: "The node the edit is attributed to (decides what runs next)." }),
      streamMode: t.field({ type: [StreamMode], description: "What the run's stream carries; default [VALUES]." }),
    }),
  },
  {
    description:
      "Edits the state at a checkpoint (when `values` or `asNode` is given), then queues a run from it. " +
      "THREAD_BUSY while another run is active; NOT_FOUND for a checkpoint that is not on the thread; " +
      "INVALID_INPUT for an update the graph refuses.",
    resolve: async (_root, { input }, ctx) => {
      // An unknown assistant, or a checkpoint that is not on this thread, is refused before the
      // edit is written, not after (a run from a checkpoint LangGraph cannot find starts empty).
      await assistantsService.get(ctx.services, input.assistantId);
      if (input.checkpointId != null) await threadStateService.getStateAt(ctx.services, input.threadId, { checkpointId: input.checkpointId });
      const isEdit = input.values != null || input.asNode != null;
      const edit = isEdit
        ? await threadStateService.updateState(ctx.services, input.threadId, {
            values: input.values ?? null,
            asNode: omitNull(input.asNode),
            checkpointId: omitNull(input.checkpointId),
          })
        : null;
      const checkpointId = edit?.checkpoint.checkpointId ?? input.checkpointId ?? null;
      const run = await createRun(
        ctx.services,
        createRunInputOf({ threadId: input.threadId, assistantId: input.assistantId, checkpointId, streamMode: input.streamMode }),
      );
      return { checkpointId, editCheckpointId: edit?.checkpoint.checkpointId ?? null, run };
    },
  },
  {
    outputFields: (t) => ({
      checkpointId: t.exposeString("checkpointId", { nullable: true, description: "The checkpoint the run starts from." }),
      editCheckpointId: t.exposeString("editCheckpointId", { nullable: true, description: "The checkpoint the edit wrote; null without an edit." }),
      run: t.expose("run", { type: RunRef }),
    }),
  },
);
