import { z } from "zod";
import { JsonObject, Limit, optional, QueryBoolean, QueryList } from "./common.js";

/** A checkpoint reference; thread_id may be sent (the SDK echoes it) but the path's thread wins. */
export const CheckpointSchema = z.object({
  thread_id: optional(z.string()),
  checkpoint_ns: optional(z.string()),
  checkpoint_id: optional(z.string().min(1)),
  checkpoint_map: optional(JsonObject),
});

/** The fields of a thread state (the SDK's ThreadStateSelectField, besides `values.<key>`). */
export const THREAD_STATE_SELECT_FIELDS = [
  "values",
  "next",
  "tasks",
  "checkpoint",
  "metadata",
  "created_at",
  "parent_checkpoint",
  "interrupts",
] as const;

const ThreadStateSelectField = z.string().refine(
  (field) => (THREAD_STATE_SELECT_FIELDS as readonly string[]).includes(field) || /^values\.[^.]+$/.test(field),
  { error: (issue) => `unknown field ${JSON.stringify(issue.input)}: select takes ${THREAD_STATE_SELECT_FIELDS.join(", ")} or values.<key>` },
);

/** `select` on a state read: which fields (or which state keys, `values.<key>`) to answer. */
export const ThreadStateSelect = z.array(ThreadStateSelectField);

/** ?subgraphs=true&select=... on the state reads. */
export const ThreadStateQuery = z.object({
  subgraphs: optional(QueryBoolean),
  select: optional(QueryList.pipe(ThreadStateSelect)),
});

export const ThreadStateCheckpointRequest = z.object({
  checkpoint: CheckpointSchema,
  subgraphs: optional(z.boolean()),
  select: optional(ThreadStateSelect),
});

/** Values are what a node would return: an object, a list of updates, or null (with as_node). */
export const ThreadStateUpdate = z.object({
  values: z.union([JsonObject, z.array(z.unknown()), z.null()]).optional(),
  as_node: optional(z.string().min(1)),
  checkpoint_id: optional(z.string().min(1)),
  checkpoint: optional(CheckpointSchema),
});

export const ThreadStatePatch = z.object({
  metadata: JsonObject,
});

/** `before` is a checkpoint id, or a config naming one (what the JS SDK sends). */
const Before = z.union([
  z.string().min(1),
  z.object({ configurable: z.object({ checkpoint_id: z.string().min(1) }) }),
]);

export const ThreadStateSearch = z.object({
  limit: Limit,
  before: optional(Before),
  metadata: optional(JsonObject),
  checkpoint: optional(CheckpointSchema),
  select: optional(ThreadStateSelect),
});

/** GET /threads/{id}/history (what Studio calls): the POST's limit, before and select as a query. */
export const ThreadHistoryQuery = z.object({
  limit: optional(z.coerce.number().int().min(1).max(1000)).transform((value) => value ?? 10),
  before: optional(z.string().min(1)),
  select: optional(QueryList.pipe(ThreadStateSelect)),
});

/** Run create's `command`, as a superstep update may carry it. */
export const CommandSchema = z.object({
  update: z.unknown().optional(),
  resume: z.unknown().optional(),
  goto: z.unknown().optional(),
});

/** ThreadCreate.supersteps: each superstep's updates are applied as one step. */
export const ThreadSupersteps = z.array(
  z.object({
    updates: z
      .array(
        z.object({
          values: z.unknown().optional(),
          command: optional(CommandSchema),
          as_node: z.string().min(1),
        }),
      )
      .min(1),
  }),
);
