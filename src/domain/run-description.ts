import type { JsonObject } from "./json.js";
import { describeRunKwargs, type Run } from "./run.js";

/**
 * A run as LangGraph Platform describes it (the SDK's `Run`, plus the kwargs it was created
 * with): the shape REST answers with and a run's webhook delivers, defined once here so the
 * webhook (sent by the service layer) needs no transport code.
 */
export interface RunDescription {
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

export function describeRun(run: Run): RunDescription {
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
