import { continueThread } from "../../services/run-lifecycle/continue-thread.js";
import { builder } from "../builder.js";
import { omitNull } from "../input-values.js";
import { createRunInputOf } from "./run/mutations.js";
import { RunRef, StreamMode } from "./run/run.js";

/**
 * Time travel on a thread (what LangGraph Studio calls edit, fork and replay): continue from
 * any checkpoint, after optionally editing the state there. The edit is updateThreadState's
 * (a new checkpoint whose parent is the chosen one, attributed to `asNode`); the run starts from
 * the resulting checkpoint, so continuing from an older checkpoint starts a new branch and
 * leaves the old one in the history. Edit and run are one service call, all or nothing
 * (services/run-lifecycle/continue-thread.ts).
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
      "All or nothing: a refused run leaves no edit. THREAD_BUSY while another run is active (CONFLICT when an edit " +
      "was asked: state edits wait for the thread's runs to end); NOT_FOUND for a checkpoint that is not on the thread; " +
      "INVALID_INPUT for an update the graph refuses.",
    resolve: async (_root, { input }, ctx) => {
      const isEdit = input.values != null || input.asNode != null;
      return continueThread(ctx.services, {
        request: {
          ...createRunInputOf({ threadId: input.threadId, assistantId: input.assistantId, checkpointId: input.checkpointId, streamMode: input.streamMode }),
          threadId: input.threadId,
        },
        edit: isEdit ? { values: input.values ?? null, asNode: omitNull(input.asNode) } : null,
      });
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
