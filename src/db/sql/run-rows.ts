import type { Run } from "../../domain/run.js";

/** Column list every run statement returns, so all of them map rows the same way. */
export const RUN_COLUMNS = `run_id, thread_id, assistant_id, status, metadata, multitask_strategy, kwargs,
  created_at, updated_at, run_after, attempt, cancel_action, error, encryption_context`;

export interface RunRow {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  status: Run["status"];
  metadata: Run["metadata"];
  multitask_strategy: Run["multitaskStrategy"];
  kwargs: Run["kwargs"];
  created_at: Date;
  updated_at: Date;
  run_after: Date;
  attempt: number;
  cancel_action: Run["cancelAction"];
  error: Run["error"];
  encryption_context: Run["encryptionContext"];
}

export function runFromRow(row: RunRow): Run {
  return {
    runId: row.run_id,
    threadId: row.thread_id,
    assistantId: row.assistant_id,
    status: row.status,
    metadata: row.metadata,
    multitaskStrategy: row.multitask_strategy,
    kwargs: row.kwargs,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    runAfter: row.run_after,
    attempt: row.attempt,
    cancelAction: row.cancel_action,
    error: row.error,
    encryptionContext: row.encryption_context,
  };
}
