import { z } from "zod";
import { JsonObject, optional } from "./common.js";

/**
 * LangSmith run API payloads (/tracing). Names follow LangSmith's OpenAPI schemas (RunCreateSchema,
 * RunUpdateSchema, BatchIngestRunsRequest, BodyParamsForRunSchema). Only the structure is checked
 * here; times are parsed by the traces service, which names the run and field when one is bad.
 * Big fields (inputs, outputs, serialized) are any JSON: message-format problems are warnings on
 * the stored run, never a refusal. Unknown keys (address, app_path, ...) are dropped.
 */
const Uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "must be a UUID");

/** ISO 8601 string (no offset = UTC) or epoch milliseconds. */
const RunTime = z.union([z.string(), z.number()]);

/** Fields LangSmith clients send as null; any other value is refused rather than ignored. */
const Unsupported = z.null({ error: "is not supported by Hangar's trace store" }).optional();

const RunFields = {
  trace_id: optional(Uuid),
  parent_run_id: optional(Uuid),
  dotted_order: optional(z.string()),
  name: optional(z.string()),
  run_type: optional(z.string()),
  status: optional(z.string()),
  start_time: optional(RunTime),
  end_time: optional(RunTime),
  inputs: z.unknown().optional(),
  outputs: z.unknown().optional(),
  extra: optional(JsonObject),
  events: optional(z.array(z.unknown())),
  serialized: z.unknown().optional(),
  error: z.unknown().optional(),
  tags: optional(z.array(z.string())),
  session_name: optional(z.string()),
  session_id: optional(Uuid),
  reference_example_id: optional(Uuid),
};

export const RunCreateSchema = z.object({ id: Uuid, ...RunFields });

/** PATCH /runs/{id} takes the id from the path; an id in the body must agree with it. */
export const RunUpdateSchema = z.object({ id: optional(Uuid), ...RunFields });

export const BatchIngestRunsRequest = z.object({
  post: optional(z.array(RunCreateSchema)),
  patch: optional(z.array(RunCreateSchema)),
});

/** POST /runs/query. Hangar adds model_name, provider, the link ids and metadata containment. */
export const BodyParamsForRunSchema = z.object({
  id: optional(z.array(Uuid)),
  trace: optional(Uuid),
  parent_run: optional(Uuid),
  run_type: optional(z.string()),
  is_root: optional(z.boolean()),
  error: optional(z.boolean()),
  start_time: optional(RunTime),
  end_time: optional(RunTime),
  session: optional(z.array(Uuid)),
  session_name: optional(z.array(z.string())),
  name: optional(z.string()),
  tags: optional(z.array(z.string())),
  // LangSmith's filter is a query-language string; Hangar accepts the subset parsed by
  // tracing/ingest/run-filter.ts, or a JSON object matched against extra.metadata (@>).
  filter: optional(z.union([z.string(), JsonObject])),
  metadata: optional(JsonObject),
  model_name: optional(z.string()),
  provider: optional(z.string()),
  hangar_run_id: optional(Uuid),
  thread_id: optional(Uuid),
  assistant_id: optional(Uuid),
  limit: z.number().int().min(1).max(1000).nullish().transform((value) => value ?? 100),
  cursor: optional(z.string()),
  order: optional(z.enum(["asc", "desc"])),
  select: optional(z.array(z.string())),
  // Sent as null by the SDK's listRuns; anything else is refused rather than silently ignored.
  query: Unsupported,
  trace_filter: Unsupported,
  tree_filter: Unsupported,
  reference_example: Unsupported,
  execution_order: Unsupported,
});

/**
 * LangSmith's v2 run reads (langsmith 0.12 `client.runs.retrieve` / `client.runs.query`). `selects`
 * name fields in upper case (INPUTS, TOTAL_COST); without them only `id` is answered, as LangSmith
 * does. Filters Hangar's store cannot answer are refused by name.
 */
const V2Selects = z.array(z.string().regex(/^[A-Z_]+$/, "must be a LangSmith RunSelectField such as NAME or INPUTS"));

export const RunRetrieveV2Query = z.object({
  project_id: Uuid,
  selects: optional(z.union([z.string(), z.array(z.string())]).transform((value) => [value].flat()).pipe(V2Selects)),
  start_time: optional(z.string()),
});

export const RunQueryV2Request = z.object({
  project_ids: optional(z.array(Uuid)),
  ids: optional(z.array(Uuid)),
  trace_id: optional(Uuid),
  is_root: optional(z.boolean()),
  has_error: optional(z.boolean()),
  run_type: optional(z.string()),
  min_start_time: optional(RunTime),
  max_start_time: optional(RunTime),
  filter: optional(z.string()),
  selects: optional(V2Selects),
  page_size: z.number().int().min(1).max(1000).nullish().transform((value) => value ?? 100),
  cursor: optional(z.string()),
  ai_search: Unsupported,
  trace_filter: Unsupported,
  tree_filter: Unsupported,
  reference_dataset_id: Unsupported,
  reference_examples: Unsupported,
  min_feedback_modified_at: Unsupported,
  max_feedback_modified_at: Unsupported,
  include_subtree_usage: Unsupported,
});

/** GET /sessions (LangSmith's project list, which `listRuns({projectName})` resolves names with). */
export const SessionsQuery = z.object({
  name: optional(z.string()),
  limit: optional(z.coerce.number().int().min(1).max(100)).transform((value) => value ?? 100),
  offset: optional(z.coerce.number().int().min(0)).transform((value) => value ?? 0),
});
