import type { EntityManager } from "typeorm";
import type { RunStreamEvent } from "../../domain/run-event.js";
import { runStatement } from "../run-statement.js";

/**
 * A stored run event with its place in its thread's stream (run_events.stream_position), which is
 * also its `streamId` (a thread stream's SSE id). Read-only: one read is shared by every stream
 * of the thread (streaming/shared-thread-reads.ts).
 */
export interface ThreadStreamEvent extends RunStreamEvent {
  position: number;
  streamId: string;
}

/**
 * The stored events of a thread's runs after a stream position, in stream order, at most `limit`
 * (page on with the last position). Reads only; walks the thread's runs, then their events. A
 * run's `metadata` event carries the run's graph (from the run row joined anyway), so a stream
 * naming it needs no query of its own. A run whose kwargs are sealed (langgraph.json
 * `encryption`) may have its graph id encrypted: its assistant's graph is named instead, which
 * is the graph the run was composed from unless the assistant moved to another graph since.
 */
export async function readThreadEvents(
  manager: EntityManager,
  threadId: string,
  afterPosition: number,
  limit: number,
): Promise<ThreadStreamEvent[]> {
  const { rows } = await runStatement<{ stream_position: string; run_id: string; seq: number; event: string; data: string; graph_id: string | null }>(
    manager,
    `SELECT e.stream_position, e.run_id, e.seq, e.event, e.data,
       CASE WHEN e.event <> 'metadata' THEN NULL
            WHEN r.encryption_context IS NULL THEN r.kwargs->>'graphId'
            ELSE (SELECT a.graph_id FROM assistants a WHERE a.assistant_id = r.assistant_id) END AS graph_id
     FROM run_events e JOIN runs r ON r.run_id = e.run_id
     WHERE r.thread_id = $1 AND e.stream_position > $2
     ORDER BY e.stream_position LIMIT $3`,
    [threadId, afterPosition, limit],
  );
  return rows.map((row) => ({
    position: Number(row.stream_position),
    streamId: String(row.stream_position),
    runId: row.run_id,
    threadId,
    seq: row.seq,
    event: row.event,
    data: row.data,
    ...(row.graph_id === null ? {} : { graphId: row.graph_id }),
  }));
}
