import type { EntityManager } from "typeorm";
import type { TraceRunDerived, TraceRunRecord } from "../../services/traces/trace-run.js";

// Column → SQL type of every written column, in insert order. The same list defines the
// jsonb_to_recordset row type, so adding a column here is the only change a new field needs.
const COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ["id", "uuid"],
  ["trace_id", "uuid"],
  ["parent_run_id", "uuid"],
  ["dotted_order", "text"],
  ["name", "text"],
  ["run_type", "text"],
  ["status", "text"],
  ["start_time", "timestamptz"],
  ["end_time", "timestamptz"],
  ["inputs", "jsonb"],
  ["outputs", "jsonb"],
  ["extra", "jsonb"],
  ["events", "jsonb"],
  ["serialized", "jsonb"],
  ["error", "text"],
  ["tags", "text[]"],
  ["session_name", "text"],
  ["session_id", "uuid"],
  ["reference_example_id", "uuid"],
  ["attachments", "jsonb"],
  ["has_post", "boolean"],
  ["has_patch", "boolean"],
  ["rendered", "jsonb"],
  ["warnings", "jsonb"],
  ["model_name", "text"],
  ["provider", "text"],
  ["prompt_tokens", "integer"],
  ["completion_tokens", "integer"],
  ["total_tokens", "integer"],
  ["prompt_token_details", "jsonb"],
  ["completion_token_details", "jsonb"],
  ["prompt_cost", "numeric"],
  ["completion_cost", "numeric"],
  ["total_cost", "numeric"],
  ["prompt_cost_details", "jsonb"],
  ["completion_cost_details", "jsonb"],
  ["cost_source", "text"],
  ["price_id", "uuid"],
  ["usage_source", "text"],
  ["tokens_estimated", "boolean"],
  ["first_token_time", "timestamptz"],
  ["hangar_run_id", "uuid"],
  ["thread_id", "uuid"],
  ["assistant_id", "uuid"],
];

const NAMES = COLUMNS.map(([name]) => name);
const UPDATES = NAMES.filter((name) => name !== "id").map((name) => `${name} = EXCLUDED.${name}`);

// The batch travels as ONE jsonb parameter expanded by jsonb_to_recordset: a single round trip
// and a single statement for any number of runs. unnest() over 44 typed arrays would do the same,
// but node-postgres writes arrays as literals, escaping every JSON document a second time.
const UPSERT_SQL = `
  INSERT INTO trace_runs (${NAMES.join(", ")}, received_at, updated_at)
  SELECT ${NAMES.join(", ")}, $2::timestamptz, $2::timestamptz
  FROM jsonb_to_recordset($1::jsonb) AS r(${COLUMNS.map(([name, type]) => `${name} ${type}`).join(", ")})
  ON CONFLICT (id) DO UPDATE SET ${UPDATES.join(", ")}, updated_at = EXCLUDED.updated_at
  WHERE trace_runs.id = ANY($3::uuid[])
  RETURNING id`;

/** A run to write: its merged record and what was derived from it. */
export interface TraceRunWrite {
  record: TraceRunRecord;
  derived: TraceRunDerived;
}

/** The batch as the JSON text upsertTraceRuns takes (separate so callers can inspect it first). */
export function serializeTraceRunWrites(runs: readonly TraceRunWrite[]): string {
  return JSON.stringify(runs.map(toColumns));
}

/**
 * Writes a batch of merged, derived runs in one statement. A run that already exists is only
 * overwritten when its id is in `lockedIds` (the caller read and locked it in this transaction,
 * so what we write was merged from it). A run that another transaction created after our read is
 * left alone and missing from the returned ids: the caller must merge it again. Rows must be in
 * id order, the order row locks are taken everywhere, so concurrent batches cannot deadlock.
 */
export async function upsertTraceRuns(
  manager: EntityManager,
  payload: string,
  lockedIds: readonly string[],
  now: Date,
): Promise<string[]> {
  const rows: { id: string }[] = await manager.query(UPSERT_SQL, [payload, now, lockedIds]);
  return rows.map((row) => row.id);
}

function toColumns({ record: run, derived }: TraceRunWrite) {
  return {
    id: run.id,
    trace_id: run.traceId,
    parent_run_id: run.parentRunId,
    dotted_order: run.dottedOrder,
    name: run.name,
    run_type: run.runType,
    status: run.status,
    start_time: run.startTime,
    end_time: run.endTime,
    // jsonb_to_recordset turns a JSON null into SQL NULL, which is what absent means here.
    inputs: run.inputs ?? null,
    outputs: run.outputs ?? null,
    extra: run.extra,
    events: run.events,
    serialized: run.serialized ?? null,
    error: run.error,
    tags: run.tags,
    session_name: run.sessionName,
    session_id: run.sessionId,
    reference_example_id: run.referenceExampleId,
    attachments: run.attachments
      ? Object.fromEntries(
          Object.entries(run.attachments).map(([name, file]) => [
            name,
            { content_type: file.contentType, size_bytes: file.sizeBytes },
          ]),
        )
      : null,
    has_post: run.hasPost,
    has_patch: run.hasPatch,
    rendered: derived.rendered,
    warnings: derived.warnings,
    model_name: derived.modelName,
    provider: derived.provider,
    prompt_tokens: derived.promptTokens,
    completion_tokens: derived.completionTokens,
    total_tokens: derived.totalTokens,
    prompt_token_details: derived.promptTokenDetails,
    completion_token_details: derived.completionTokenDetails,
    prompt_cost: derived.promptCost,
    completion_cost: derived.completionCost,
    total_cost: derived.totalCost,
    prompt_cost_details: derived.promptCostDetails,
    completion_cost_details: derived.completionCostDetails,
    cost_source: derived.costSource,
    price_id: derived.priceId,
    usage_source: derived.usageSource,
    tokens_estimated: derived.tokensEstimated,
    first_token_time: derived.firstTokenTime,
    hangar_run_id: derived.hangarRunId,
    thread_id: derived.threadId,
    assistant_id: derived.assistantId,
  };
}
