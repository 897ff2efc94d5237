/**
 * One event of a run's stream, as SSE sends it and as it is stored for replay. `seq` starts at 1
 * per run and is the SSE `id`, so a client's Last-Event-ID is the last seq it saw.
 */
export interface RunStreamEvent {
  runId: string;
  threadId: string;
  seq: number;
  /** SSE event name: metadata, values, updates, messages/partial, updates|child:1, error, ... */
  event: string;
  /** The SSE data line: JSON text, kept as text so replay sends it without re-encoding. */
  data: string;
}
