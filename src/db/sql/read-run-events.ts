import type { EntityManager } from "typeorm";
import type { RunStreamEvent } from "../../domain/run-event.js";
import { runStatement } from "../run-statement.js";

/** A run's stored events after a sequence number, in order (replay for Last-Event-ID). */
export async function readRunEvents(manager: EntityManager, runId: string, threadId: string, afterSeq: number): Promise<RunStreamEvent[]> {
  const { rows } = await runStatement<{ seq: number; event: string; data: string }>(
    manager,
    `SELECT seq, event, data FROM run_events WHERE run_id = $1 AND seq > $2 ORDER BY seq`,
    [runId, afterSeq],
  );
  return rows.map((row) => ({ runId, threadId, seq: row.seq, event: row.event, data: row.data }));
}
