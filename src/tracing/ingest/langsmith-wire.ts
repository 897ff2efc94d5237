import type { JsonObject } from "../../domain/json.js";
import type { TraceAttachment, TraceRun, TraceRunOperation } from "../../domain/trace-run.js";
import { traceRunStatus } from "../../domain/trace-run-status.js";
import { parseDottedOrder } from "./dotted-order.js";

/**
 * The LangSmith run wire format (snake_case), mapped to and from the service's run operations.
 * Requests are validated by the zod schemas in rest/schemas/tracing.ts first; these functions
 * only rename.
 */
export interface LangSmithRunWire {
  id?: string;
  trace_id?: string;
  parent_run_id?: string;
  dotted_order?: string;
  name?: string;
  run_type?: string;
  status?: string;
  start_time?: string | number;
  end_time?: string | number;
  inputs?: unknown;
  outputs?: unknown;
  extra?: JsonObject;
  events?: unknown[];
  serialized?: unknown;
  error?: unknown;
  tags?: string[];
  session_name?: string;
  session_id?: string;
  reference_example_id?: string;
}

/** Attachment parts of a multipart request, as collectMultipartRuns records them. */
export type AttachmentsWire = Record<string, { content_type: string | null; size_bytes: number }>;

export function runOperationFromWire(run: LangSmithRunWire, id: string, attachments?: AttachmentsWire): TraceRunOperation {
  return {
    id,
    traceId: run.trace_id,
    parentRunId: run.parent_run_id,
    dottedOrder: run.dotted_order,
    name: run.name,
    runType: run.run_type,
    status: run.status,
    startTime: run.start_time,
    endTime: run.end_time,
    inputs: run.inputs,
    outputs: run.outputs,
    extra: run.extra,
    events: run.events,
    serialized: run.serialized,
    error: run.error == null ? undefined : typeof run.error === "string" ? run.error : JSON.stringify(run.error),
    tags: run.tags,
    sessionName: run.session_name,
    sessionId: run.session_id,
    referenceExampleId: run.reference_example_id,
    attachments: attachments ? attachmentsFromWire(attachments) : undefined,
  };
}

/**
 * POST /runs accepts a run with nested `child_runs` (the older LangSmith client sends whole trees):
 * the tree becomes a list of posts, each child naming its parent.
 */
export function flattenChildRuns(run: Record<string, unknown>): Record<string, unknown>[] {
  const { child_runs: children, ...own } = run;
  const flat = [own];
  if (Array.isArray(children)) {
    for (const child of children) {
      if (typeof child !== "object" || child === null) continue;
      const withParent = { parent_run_id: own.id, trace_id: own.trace_id ?? own.id, ...(child as object) };
      flat.push(...flattenChildRuns(withParent));
    }
  }
  return flat;
}

function attachmentsFromWire(attachments: AttachmentsWire): Record<string, TraceAttachment> {
  return Object.fromEntries(
    Object.entries(attachments).map(([name, file]) => [name, { contentType: file.content_type, sizeBytes: file.size_bytes }]),
  );
}

/**
 * A stored run in the LangSmith read shape plus Hangar's derived fields. Costs are JSON numbers
 * (LangSmith's shape) made from the exact decimal strings: Number() of a decimal with up to 15
 * significant digits gives the double whose shortest representation is that same decimal, so
 * 0.00015 is written as 0.00015. Longer decimals are rounded to the nearest double; the exact
 * value stays in the database and the service layer.
 */
export function traceRunToWire(run: TraceRun, childRunIds: string[]) {
  const ancestors = run.dottedOrder ? (parseDottedOrder(run.dottedOrder) ?? []).slice(0, -1) : [];
  return {
    id: run.id,
    name: run.name,
    run_type: run.runType,
    status: traceRunStatus(run, "langsmith"),
    start_time: run.startTime,
    end_time: run.endTime,
    trace_id: run.traceId,
    parent_run_id: run.parentRunId,
    parent_run_ids: ancestors.map((segment) => segment.runId),
    dotted_order: run.dottedOrder,
    child_run_ids: childRunIds,
    inputs: run.inputs,
    outputs: run.outputs,
    extra: run.extra,
    events: run.events,
    serialized: run.serialized,
    error: run.error,
    tags: run.tags,
    session_name: run.sessionName,
    session_id: run.sessionId,
    reference_example_id: run.referenceExampleId,
    attachments: run.attachments ? attachmentsToWire(run.attachments) : null,
    model_name: run.modelName,
    provider: run.provider,
    prompt_tokens: run.promptTokens,
    completion_tokens: run.completionTokens,
    total_tokens: run.totalTokens,
    prompt_token_details: run.promptTokenDetails,
    completion_token_details: run.completionTokenDetails,
    prompt_cost: decimalToNumber(run.promptCost),
    completion_cost: decimalToNumber(run.completionCost),
    total_cost: decimalToNumber(run.totalCost),
    prompt_cost_details: decimalMapToNumbers(run.promptCostDetails),
    completion_cost_details: decimalMapToNumbers(run.completionCostDetails),
    cost_source: run.costSource,
    price_id: run.priceId,
    usage_source: run.usageSource,
    tokens_estimated: run.tokensEstimated,
    first_token_time: run.firstTokenTime,
    rendered: run.rendered,
    warnings: run.warnings,
    hangar_run_id: run.hangarRunId,
    thread_id: run.threadId,
    assistant_id: run.assistantId,
    received_at: run.receivedAt.toISOString(),
    updated_at: run.updatedAt.toISOString(),
  };
}

function attachmentsToWire(attachments: Record<string, TraceAttachment>): AttachmentsWire {
  return Object.fromEntries(
    Object.entries(attachments).map(([name, file]) => [name, { content_type: file.contentType, size_bytes: file.sizeBytes }]),
  );
}

function decimalToNumber(value: string | null): number | null {
  return value === null ? null : Number(value);
}

function decimalMapToNumbers(map: Record<string, string> | null): Record<string, number> | null {
  if (!map) return null;
  return Object.fromEntries(Object.entries(map).map(([kind, value]) => [kind, Number(value)]));
}
