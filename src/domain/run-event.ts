/**
 * One event of a run's stream, as SSE sends it and as it is stored for replay. `seq` starts at 1
 * per run; the SSE `id` is seq - 1 (LangGraph Platform counts from 0), see sse-response.ts.
 */
export interface RunStreamEvent {
  runId: string;
  threadId: string;
  seq: number;
  /** SSE event name: metadata, values, updates, messages/partial, updates|child:1, error, ... */
  event: string;
  /** The SSE data line: JSON text, kept as text so replay sends it without re-encoding. */
  data: string;
  /** The SSE id when it is not the run's own count (a thread stream numbers events across runs). */
  streamId?: string;
  /**
   * The run's graph, on a run's `metadata` event read back from its thread's stored stream (where
   * the run's row is at hand): protocol v2's lifecycle `started` names it.
   */
  graphId?: string;
}

/**
 * The first event of a run attempt's stream: the run's id and the attempt (1 for the first). Its
 * worker stores and publishes it as the attempt starts; a stream opened before the run was queued
 * sends the first attempt's own at once (run-results.service.ts createAndStream), the same text.
 */
export function runMetadataEvent(run: { runId: string; threadId: string }, attempt: number, seq: number): RunStreamEvent {
  return { runId: run.runId, threadId: run.threadId, seq, event: "metadata", data: JSON.stringify({ run_id: run.runId, attempt }) };
}

/**
 * LangGraph Platform's modes of a thread's stream: `run_modes` the runs' own events (each in the
 * modes its run was created with) and `run_done` at each run's end; `lifecycle` only each run's
 * start (`metadata`) and `run_done`; `state_update` the thread's state after each step of a run
 * (`values`) and after each state update outside runs (`values`, with no id: it is not stored).
 */
export const THREAD_STREAM_MODES = ["run_modes", "lifecycle", "state_update"] as const;
export type ThreadStreamMode = (typeof THREAD_STREAM_MODES)[number];
