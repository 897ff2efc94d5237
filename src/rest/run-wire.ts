import { jsonObjectOrEmpty } from "../domain/json.js";
import { describeRun, type RunDescription } from "../domain/run-description.js";
import type { Run, StreamMode } from "../domain/run.js";
import { DEFAULT_STREAM_MODES, runRequestOf, type RunCreateRequest } from "../domain/run-request.js";
import type { RunCreate } from "./schemas/runs.js";

/** A run as the LangGraph SDK's `Run` type has it, plus the kwargs it was created with. */
export type RunWire = RunDescription;

export const runToWire: (run: Run) => RunWire = describeRun;

/**
 * Maps a run request to the domain's draft and completes it there (runRequestOf: the rules and
 * defaults every transport shares). `forceModes` adds modes an endpoint needs for itself (wait
 * reads the last `values` event). Stateless endpoints pass `threadId: null`.
 */
export function createRunFromWire(
  body: RunCreate,
  threadId: string | null,
  options: {
    forceModes?: StreamMode[];
    /** Request headers for `config.configurable` (http.configurable_headers); they win over the body's. */
    headers?: Record<string, string>;
  } = {},
): RunCreateRequest {
  const config = body.config ?? {};
  const configurable = { ...jsonObjectOrEmpty(config.configurable), ...(options.headers ?? {}) };
  const forced = options.forceModes ?? [];
  return runRequestOf({
    threadId,
    assistantId: body.assistant_id,
    input: body.input,
    command: body.command,
    context: body.context,
    config: Object.keys(configurable).length > 0 ? { ...config, configurable } : config,
    metadata: body.metadata,
    streamModes: forced.length > 0 ? [...(body.stream_mode ?? DEFAULT_STREAM_MODES), ...forced] : body.stream_mode,
    streamSubgraphs: body.stream_subgraphs,
    streamResumable: body.stream_resumable,
    interruptBefore: body.interrupt_before,
    interruptAfter: body.interrupt_after,
    checkpointId: body.checkpoint_id ?? body.checkpoint?.checkpoint_id,
    checkpointNs: body.checkpoint?.checkpoint_ns,
    webhook: body.webhook,
    onCompletion: body.on_completion,
    // LangGraph Platform's older name for durability "exit".
    durability: body.durability ?? (body.checkpoint_during === false ? "exit" : undefined),
    multitaskStrategy: body.multitask_strategy,
    ifNotExists: body.if_not_exists,
    afterSeconds: body.after_seconds,
  });
}
