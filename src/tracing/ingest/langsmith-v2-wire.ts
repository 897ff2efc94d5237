import type { TraceProject } from "../../domain/trace-run.js";
import type { TraceRun } from "../../domain/trace-run.js";
import { traceRunToWire } from "./langsmith-wire.js";

/**
 * LangSmith's v2 read shapes (langsmith 0.12's generated client): a run answers the fields its
 * `selects` name (upper case: NAME → name), always with its id; fields Hangar's store does not
 * keep (previews, share URLs, feedback stats) are left out rather than invented.
 */
export function traceRunToV2Wire(run: TraceRun, selects: readonly string[] | undefined): Record<string, unknown> {
  const v1 = traceRunToWire(run, []);
  const startMs = Date.parse(String(v1.start_time));
  const endMs = v1.end_time === null ? Number.NaN : Date.parse(String(v1.end_time));
  const all: Record<string, unknown> = {
    id: v1.id,
    name: v1.name,
    // v2 names run types in upper case (LLM, CHAIN); v1 and the store in lower case.
    run_type: v1.run_type?.toUpperCase() ?? null,
    status: v1.error !== null ? "ERROR" : v1.end_time !== null ? "SUCCESS" : "PENDING",
    start_time: v1.start_time,
    end_time: v1.end_time,
    latency_seconds: Number.isNaN(endMs) ? null : (endMs - startMs) / 1000,
    first_token_time: v1.first_token_time,
    error: v1.error,
    extra: v1.extra,
    metadata: (v1.extra?.metadata as Record<string, unknown> | undefined) ?? {},
    events: v1.events,
    inputs: v1.inputs,
    outputs: v1.outputs,
    manifest: v1.serialized,
    parent_run_ids: v1.parent_run_ids,
    project_id: v1.session_id,
    trace_id: v1.trace_id,
    thread_id: v1.thread_id,
    dotted_order: v1.dotted_order,
    is_root: v1.parent_run_id === null,
    reference_example_id: v1.reference_example_id,
    total_tokens: v1.total_tokens,
    prompt_tokens: v1.prompt_tokens,
    completion_tokens: v1.completion_tokens,
    total_cost: v1.total_cost,
    prompt_cost: v1.prompt_cost,
    completion_cost: v1.completion_cost,
    prompt_token_details: v1.prompt_token_details,
    completion_token_details: v1.completion_token_details,
    prompt_cost_details: v1.prompt_cost_details,
    completion_cost_details: v1.completion_cost_details,
    price_model_id: v1.price_id,
    tags: v1.tags,
  };
  const wanted = new Set(["id", ...(selects ?? []).map((field) => field.toLowerCase())]);
  return Object.fromEntries(Object.entries(all).filter(([key]) => wanted.has(key)));
}

/** A project as LangSmith's TracerSession has it (what `readProject` returns). */
export function traceProjectToWire(project: TraceProject) {
  return {
    id: project.id,
    name: project.name,
    start_time: project.startTime.toISOString(),
    last_run_start_time: project.lastRunStartTime.toISOString(),
    run_count: project.runCount,
    description: null,
    extra: null,
    reference_dataset_id: null,
    // Hangar has one tenant; LangSmith's schema requires an id here.
    tenant_id: "00000000-0000-0000-0000-000000000000",
  };
}
