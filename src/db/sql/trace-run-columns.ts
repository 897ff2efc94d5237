import type { JsonObject } from "../../domain/json.js";
import type { TraceRun, TraceRunDerived, TraceRunRecord } from "../../domain/trace-run.js";
import type { CanonicalRunTime } from "../../tracing/ingest/parse-run-time.js";

/**
 * Column lists and row mapping shared by the trace_runs statements (no statement lives here).
 * Times are selected as canonical text with microseconds: node-postgres would parse timestamptz
 * into a Date and drop them.
 */
export const utc = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The verbatim (record) columns, as select-list expressions aliased to their column names. */
export const TRACE_RECORD_SELECT = [
  "id",
  "trace_id",
  "parent_run_id",
  "dotted_order",
  "name",
  "run_type",
  "status",
  `${utc("start_time")} AS start_time`,
  `${utc("end_time")} AS end_time`,
  "inputs",
  "outputs",
  "extra",
  "events",
  "serialized",
  "error",
  "tags",
  "session_name",
  "session_id",
  "reference_example_id",
  "attachments",
  "has_post",
  "has_patch",
].join(", ");

/** Every column of a run, for reads. */
export const TRACE_RUN_SELECT = [
  TRACE_RECORD_SELECT,
  "rendered",
  "warnings",
  "model_name",
  "provider",
  "prompt_tokens",
  "completion_tokens",
  "total_tokens",
  "prompt_token_details",
  "completion_token_details",
  "prompt_cost::text AS prompt_cost",
  "completion_cost::text AS completion_cost",
  "total_cost::text AS total_cost",
  "prompt_cost_details",
  "completion_cost_details",
  "cost_source",
  "price_id",
  "service_tier",
  "price_tier",
  "usage_source",
  "tokens_estimated",
  `${utc("first_token_time")} AS first_token_time`,
  "hangar_run_id",
  "thread_id",
  "assistant_id",
  "received_at",
  "updated_at",
].join(", ");

/**
 * A row as TRACE_RECORD_SELECT reads it: pg parses jsonb, text[] and booleans; uuids and the
 * times (selected as text above) arrive as strings.
 */
export interface TraceRecordRow {
  id: string;
  trace_id: string | null;
  parent_run_id: string | null;
  dotted_order: string | null;
  name: string | null;
  run_type: string | null;
  status: string | null;
  start_time: CanonicalRunTime;
  end_time: CanonicalRunTime | null;
  inputs: unknown;
  outputs: unknown;
  extra: JsonObject | null;
  events: unknown[] | null;
  serialized: unknown;
  error: string | null;
  tags: string[] | null;
  session_name: string | null;
  session_id: string | null;
  reference_example_id: string | null;
  attachments: Record<string, { content_type: string | null; size_bytes: number }> | null;
  has_post: boolean;
  has_patch: boolean;
}

/** A row as TRACE_RUN_SELECT reads it (numeric costs selected as text; integer tokens as numbers). */
export interface TraceRunRow extends TraceRecordRow {
  rendered: TraceRunDerived["rendered"];
  warnings: string[] | null;
  model_name: string | null;
  provider: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  prompt_token_details: Record<string, number> | null;
  completion_token_details: Record<string, number> | null;
  prompt_cost: string | null;
  completion_cost: string | null;
  total_cost: string | null;
  prompt_cost_details: Record<string, string> | null;
  completion_cost_details: Record<string, string> | null;
  cost_source: TraceRunDerived["costSource"];
  price_id: string | null;
  service_tier: string | null;
  price_tier: string | null;
  usage_source: TraceRunDerived["usageSource"];
  tokens_estimated: boolean;
  first_token_time: CanonicalRunTime | null;
  hangar_run_id: string | null;
  thread_id: string | null;
  assistant_id: string | null;
  received_at: Date;
  updated_at: Date;
}

export function traceRecordFromRow(row: TraceRecordRow): TraceRunRecord {
  return {
    id: row.id,
    traceId: row.trace_id,
    parentRunId: row.parent_run_id,
    dottedOrder: row.dotted_order,
    name: row.name,
    runType: row.run_type,
    status: row.status,
    startTime: row.start_time,
    endTime: row.end_time,
    inputs: row.inputs,
    outputs: row.outputs,
    extra: row.extra,
    events: row.events,
    serialized: row.serialized,
    error: row.error,
    tags: row.tags ?? [],
    sessionName: row.session_name,
    sessionId: row.session_id,
    referenceExampleId: row.reference_example_id,
    attachments: row.attachments
      ? Object.fromEntries(
          Object.entries(row.attachments).map(
            ([name, file]) => [name, { contentType: file.content_type, sizeBytes: file.size_bytes }],
          ),
        )
      : null,
    hasPost: row.has_post,
    hasPatch: row.has_patch,
  };
}

export function traceRunFromRow(row: TraceRunRow): TraceRun {
  return {
    ...traceRecordFromRow(row),
    rendered: row.rendered,
    warnings: row.warnings ?? [],
    modelName: row.model_name,
    provider: row.provider,
    promptTokens: row.prompt_tokens,
    completionTokens: row.completion_tokens,
    totalTokens: row.total_tokens,
    promptTokenDetails: row.prompt_token_details,
    completionTokenDetails: row.completion_token_details,
    promptCost: row.prompt_cost,
    completionCost: row.completion_cost,
    totalCost: row.total_cost,
    promptCostDetails: row.prompt_cost_details,
    completionCostDetails: row.completion_cost_details,
    costSource: row.cost_source,
    priceId: row.price_id,
    serviceTier: row.service_tier,
    priceTier: row.price_tier,
    usageSource: row.usage_source,
    tokensEstimated: row.tokens_estimated,
    firstTokenTime: row.first_token_time,
    hangarRunId: row.hangar_run_id,
    threadId: row.thread_id,
    assistantId: row.assistant_id,
    receivedAt: row.received_at,
    updatedAt: row.updated_at,
  };
}
