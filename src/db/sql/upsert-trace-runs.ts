import type { EntityManager } from "typeorm";
import type { TraceRunDerived, TraceRunRecord } from "../../domain/trace-run.js";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";
import { commitFlushCondition } from "./commit-flush.js";

/** A run to write: its merged record and what was derived from it. */
export interface TraceRunWrite {
  record: TraceRunRecord;
  derived: TraceRunDerived;
}

type Column = readonly [name: string, type: string, value: (run: TraceRunWrite) => unknown];

// Every written column: name, SQL type, and where its value comes from. The batch travels as a
// JSON array of positional rows in this order, so this list is the whole wire contract.
const COLUMNS: readonly Column[] = [
  ["id", "uuid", ({ record }) => record.id],
  ["trace_id", "uuid", ({ record }) => record.traceId],
  ["parent_run_id", "uuid", ({ record }) => record.parentRunId],
  ["dotted_order", "text", ({ record }) => record.dottedOrder],
  ["name", "text", ({ record }) => record.name],
  ["run_type", "text", ({ record }) => record.runType],
  ["status", "text", ({ record }) => record.status],
  ["start_time", "timestamptz", ({ record }) => record.startTime],
  ["end_time", "timestamptz", ({ record }) => record.endTime],
  ["inputs", "jsonb", ({ record }) => record.inputs ?? null],
  ["outputs", "jsonb", ({ record }) => record.outputs ?? null],
  ["extra", "jsonb", ({ record }) => record.extra],
  ["events", "jsonb", ({ record }) => record.events],
  ["serialized", "jsonb", ({ record }) => record.serialized ?? null],
  ["error", "text", ({ record }) => record.error],
  ["tags", "text[]", ({ record }) => record.tags],
  ["session_name", "text", ({ record }) => record.sessionName],
  ["session_id", "uuid", ({ record }) => record.sessionId],
  ["reference_example_id", "uuid", ({ record }) => record.referenceExampleId],
  ["attachments", "jsonb", ({ record }) => attachmentsColumn(record.attachments)],
  ["has_post", "boolean", ({ record }) => record.hasPost],
  ["has_patch", "boolean", ({ record }) => record.hasPatch],
  ["rendered", "jsonb", ({ derived }) => derived.rendered],
  ["warnings", "jsonb", ({ derived }) => derived.warnings],
  ["model_name", "text", ({ derived }) => derived.modelName],
  ["provider", "text", ({ derived }) => derived.provider],
  ["prompt_tokens", "integer", ({ derived }) => derived.promptTokens],
  ["completion_tokens", "integer", ({ derived }) => derived.completionTokens],
  ["total_tokens", "integer", ({ derived }) => derived.totalTokens],
  ["prompt_token_details", "jsonb", ({ derived }) => derived.promptTokenDetails],
  ["completion_token_details", "jsonb", ({ derived }) => derived.completionTokenDetails],
  ["prompt_cost", "numeric", ({ derived }) => derived.promptCost],
  ["completion_cost", "numeric", ({ derived }) => derived.completionCost],
  ["total_cost", "numeric", ({ derived }) => derived.totalCost],
  ["prompt_cost_details", "jsonb", ({ derived }) => derived.promptCostDetails],
  ["completion_cost_details", "jsonb", ({ derived }) => derived.completionCostDetails],
  ["cost_source", "text", ({ derived }) => derived.costSource],
  ["price_id", "uuid", ({ derived }) => derived.priceId],
  ["service_tier", "text", ({ derived }) => derived.serviceTier],
  ["price_tier", "text", ({ derived }) => derived.priceTier],
  ["usage_source", "text", ({ derived }) => derived.usageSource],
  ["tokens_estimated", "boolean", ({ derived }) => derived.tokensEstimated],
  ["first_token_time", "timestamptz", ({ derived }) => derived.firstTokenTime],
  ["hangar_run_id", "uuid", ({ derived }) => derived.hangarRunId],
  ["thread_id", "uuid", ({ derived }) => derived.threadId],
  ["assistant_id", "uuid", ({ derived }) => derived.assistantId],
];

/** The select-list expression reading column `index` of row `r` (a JSON array) as its SQL type. */
function readColumn(type: string, index: number): string {
  // A JSON null in a jsonb position must become SQL NULL, not the jsonb value 'null'.
  if (type === "jsonb") return `NULLIF(r -> ${index}, 'null'::jsonb)`;
  if (type === "text[]") return `ARRAY(SELECT jsonb_array_elements_text(r -> ${index}))`;
  if (type === "text") return `r ->> ${index}`;
  return `(r ->> ${index})::${type}`;
}

const NAMES = COLUMNS.map(([name]) => name);
const UPDATES = NAMES.filter((name) => name !== "id").map((name) => `${name} = EXCLUDED.${name}`);

// The batch is ONE jsonb parameter, an array of positional rows: one round trip and one statement
// for any number of runs. Positional rather than keyed: the payload carries no column names (a
// quarter smaller) and PostgreSQL reads each value by index instead of by key lookup. unnest() over
// 44 typed arrays would also be one statement, but node-postgres writes arrays as literals,
// escaping every JSON document a second time.
const UPSERT_TRACE_RUNS = preparedStatement(
  "upsert_trace_runs",
  `
  INSERT INTO trace_runs (${NAMES.join(", ")}, received_at, updated_at)
  SELECT ${COLUMNS.map(([, type], index) => readColumn(type, index)).join(", ")}, $2::timestamptz, $2::timestamptz
  FROM jsonb_array_elements($1::jsonb) AS r
  WHERE ${commitFlushCondition("$4")}
  ON CONFLICT (id) DO UPDATE SET ${UPDATES.join(", ")}, updated_at = EXCLUDED.updated_at
  WHERE trace_runs.id = ANY($3::uuid[])
  RETURNING id`,
);

/** The batch as the JSON text upsertTraceRuns takes (separate so callers can inspect it first). */
export function serializeTraceRunWrites(runs: readonly TraceRunWrite[]): string {
  return JSON.stringify(runs.map((run) => COLUMNS.map(([, , value]) => value(run))));
}

/**
 * Writes a batch of merged, derived runs in one statement. A run that already exists is only
 * overwritten when its id is in `lockedIds` (the caller read and locked it in this transaction,
 * so what we write was merged from it). A run that another transaction created after our read is
 * left alone and missing from the returned ids: the caller must merge it again. Rows must be in
 * id order, the order row locks are taken everywhere, so concurrent batches cannot deadlock.
 *
 * `awaitFlush` false: the commit (of the statement, or of the caller's transaction) does not wait
 * for the WAL flush (commit-flush.ts): for the trace of a Hangar run, made durable by its settle.
 */
export async function upsertTraceRuns(
  manager: EntityManager,
  payload: string,
  lockedIds: readonly string[],
  now: Date,
  { awaitFlush }: { awaitFlush: boolean },
): Promise<string[]> {
  const { rows } = await runStatement<{ id: string }>(manager, UPSERT_TRACE_RUNS, [payload, now, lockedIds, awaitFlush]);
  return rows.map((row) => row.id);
}

// Stored in the wire's snake_case, as GET /runs returns it.
function attachmentsColumn(attachments: TraceRunRecord["attachments"]) {
  if (!attachments) return null;
  return Object.fromEntries(
    Object.entries(attachments).map(([name, file]) => [name, { content_type: file.contentType, size_bytes: file.sizeBytes }]),
  );
}
