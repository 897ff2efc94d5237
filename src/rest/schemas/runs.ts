import { z } from "zod";
import { CANCEL_ACTIONS, MULTITASK_STRATEGIES, RUN_STATUSES, STREAM_MODES } from "../../domain/run.js";
import { THREAD_STREAM_MODES } from "../../domain/run-event.js";
import { JsonObject, optional, QueryList } from "./common.js";

export const NodeList = z.union([z.literal("*"), z.array(z.string())]);

const StreamModeName = z.enum(STREAM_MODES, {
  error: (issue) => `unknown stream mode ${JSON.stringify(issue.input)}: Hangar streams ${STREAM_MODES.join(", ")}`,
});

/** `stream_mode` may be one mode or a list; an unknown mode is named in the 422. */
export const StreamModeList = z
  .union([z.string(), z.array(z.unknown())])
  .transform((value) => (Array.isArray(value) ? value : [value]))
  .pipe(z.array(StreamModeName));

/**
 * LangGraph's Command. Other keys are dropped, not refused: RemoteGraph sends `Command.toJSON()`,
 * which carries `lg_name`. What the fields may hold is the domain's rule (domain/run-command.ts).
 */
const Command = z.object({
  resume: z.unknown().optional(),
  update: z.unknown().optional(),
  goto: z.unknown().optional(),
});

const Checkpoint = z
  .object({
    checkpoint_id: optional(z.string()),
    checkpoint_ns: optional(z.string()),
    thread_id: optional(z.string()),
    checkpoint_map: optional(JsonObject),
  })
  .passthrough();

/** The fields that say how a run executes: run creation's, and what a cron stores for its firings. */
export const RunExecutionFields = {
  input: optional(z.unknown()),
  context: optional(JsonObject),
  config: optional(JsonObject),
  metadata: optional(JsonObject),
  stream_mode: optional(StreamModeList),
  stream_subgraphs: optional(z.boolean()),
  stream_resumable: optional(z.boolean()),
  interrupt_before: optional(NodeList),
  interrupt_after: optional(NodeList),
  multitask_strategy: optional(z.enum(MULTITASK_STRATEGIES)),
  // Its rule (an http(s) URL or a path here) is the domain's, checked with the others (domain/run-request.ts).
  webhook: optional(z.string()),
  durability: optional(z.enum(["sync", "async", "exit"])),
  checkpoint_during: optional(z.boolean()),
};

/**
 * RunCreateStateful / RunCreateStateless of the LangGraph Platform API: shapes only. The rules
 * between fields (a command wins over input, after_seconds bounds, webhook) and the defaults are the
 * domain's (runRequestOf), which run-wire.ts applies, so REST and GraphQL answer alike.
 */
export const RunCreate = z.object({
  assistant_id: z.string({ error: "assistant_id is required (an assistant id or a graph name)" }).min(1),
  ...RunExecutionFields,
  command: optional(Command),
  if_not_exists: optional(z.enum(["create", "reject"])),
  on_completion: optional(z.enum(["delete", "keep"])),
  on_disconnect: optional(z.enum(["cancel", "continue"])),
  after_seconds: optional(z.number()),
  checkpoint_id: optional(z.string()),
  checkpoint: optional(Checkpoint),
  feedback_keys: optional(z.array(z.string())),
  langsmith_tracer: optional(z.unknown()),
});
export type RunCreate = z.infer<typeof RunCreate>;

export const RunBatchCreate = z.array(RunCreate).min(1, "send at least one run").max(1000);

/** The fields of a run on the wire (what `select` may name). */
export const RUN_SELECT_FIELDS = [
  "run_id",
  "thread_id",
  "assistant_id",
  "created_at",
  "updated_at",
  "status",
  "metadata",
  "kwargs",
  "multitask_strategy",
] as const;

export const RunListQuery = z.object({
  limit: optional(z.coerce.number().int().min(1).max(1000)).transform((value) => value ?? 10),
  offset: optional(z.coerce.number().int().min(0)).transform((value) => value ?? 0),
  status: optional(z.enum(RUN_STATUSES)),
  select: optional(QueryList.pipe(z.array(z.enum(RUN_SELECT_FIELDS)))),
});

export const RunCancelQuery = z.object({
  wait: optional(z.enum(["0", "1", "true", "false"])).transform((value) => value === "1" || value === "true"),
  action: optional(z.enum(CANCEL_ACTIONS)).transform((value) => value ?? "interrupt"),
});

export const RunBulkCancel = z
  .object({
    thread_id: optional(z.string()),
    run_ids: optional(z.array(z.string())),
    status: optional(z.enum(["pending", "running", "all"])),
    action: optional(z.enum(CANCEL_ACTIONS)).transform((value) => value ?? "interrupt"),
  })
  .refine((body) => body.run_ids !== undefined || body.status !== undefined || body.thread_id !== undefined, {
    message: "name the runs to cancel: run_ids, thread_id or status",
  });

export const ThreadStreamQuery = z.object({
  stream_mode: optional(QueryList.pipe(z.array(z.enum(THREAD_STREAM_MODES)))).transform(
    (modes) => modes ?? (["run_modes"] as const),
  ),
});

export const RunStreamQuery = z.object({
  stream_mode: optional(QueryList.pipe(z.array(z.enum(STREAM_MODES)))),
  cancel_on_disconnect: optional(z.enum(["0", "1", "true", "false"])).transform((value) => value === "1" || value === "true"),
});
