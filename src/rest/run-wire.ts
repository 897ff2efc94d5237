import type { JsonObject } from "../domain/json.js";
import { describeRunKwargs, type Run } from "../domain/run.js";
import type { CreateRunInput } from "../services/runs.service.js";
import type { RunCreate } from "./schemas/runs.js";

/** A run as the LangGraph SDK's `Run` type has it, plus the kwargs it was created with. */
export interface RunWire {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  created_at: string;
  updated_at: string;
  status: Run["status"];
  metadata: JsonObject;
  multitask_strategy: Run["multitaskStrategy"];
  kwargs: JsonObject;
}

export function runToWire(run: Run): RunWire {
  return {
    run_id: run.runId,
    thread_id: run.threadId,
    assistant_id: run.assistantId,
    created_at: run.createdAt.toISOString(),
    updated_at: run.updatedAt.toISOString(),
    status: run.status,
    metadata: run.metadata,
    multitask_strategy: run.multitaskStrategy,
    kwargs: describeRunKwargs(run.kwargs),
  };
}

/**
 * Maps a run request. `forceModes` adds modes an endpoint needs for itself (wait reads the last
 * `values` event). Stateless endpoints pass `threadId: null`.
 */
export function createRunFromWire(
  body: RunCreate,
  threadId: string | null,
  options: {
    defaultModes?: CreateRunInput["streamModes"];
    forceModes?: CreateRunInput["streamModes"];
    /** Request headers for `config.configurable` (http.configurable_headers); they win over the body's. */
    headers?: Record<string, string>;
  } = {},
): CreateRunInput {
  const modes = body.stream_mode ?? options.defaultModes ?? ["values"];
  const config = body.config ?? {};
  const configurable = { ...((config.configurable as JsonObject | undefined) ?? {}), ...(options.headers ?? {}) };
  return {
    threadId,
    assistantId: body.assistant_id,
    input: body.input ?? null,
    command: body.command ?? null,
    context: body.context ?? {},
    config: Object.keys(configurable).length > 0 ? { ...config, configurable } : config,
    metadata: body.metadata ?? {},
    streamModes: [...new Set([...modes, ...(options.forceModes ?? [])])],
    streamSubgraphs: body.stream_subgraphs ?? false,
    streamResumable: body.stream_resumable ?? false,
    interruptBefore: body.interrupt_before ?? null,
    interruptAfter: body.interrupt_after ?? null,
    checkpointId: body.checkpoint_id ?? body.checkpoint?.checkpoint_id ?? null,
    checkpointNs: body.checkpoint?.checkpoint_ns ?? null,
    webhook: body.webhook ?? null,
    onCompletion: body.on_completion ?? null,
    durability: body.durability ?? (body.checkpoint_during === false ? "exit" : null),
    multitaskStrategy: body.multitask_strategy ?? "reject",
    ifNotExists: body.if_not_exists ?? "reject",
    afterSeconds: body.after_seconds ?? 0,
  };
}
