import type { EntityManager } from "typeorm";
import type { RunStreamEvent } from "../../domain/run-event.js";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";
import { commitFlushCondition } from "./commit-flush.js";

const INSERT_RUN_EVENTS = preparedStatement(
  "insert_run_events",
  `INSERT INTO run_events (run_id, seq, event, data)
   SELECT e.run_id, e.seq, e.event, e.data
   FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[]) WITH ORDINALITY AS e (run_id, seq, event, data, n)
   WHERE EXISTS (SELECT 1 FROM runs WHERE runs.run_id = e.run_id) AND ${commitFlushCondition("false")}
   ORDER BY e.n
   ON CONFLICT (run_id, seq) DO NOTHING`,
);

/**
 * Stores a batch of stream events of any number of runs in one statement (unnest of arrays),
 * so event storage costs one round trip per flush, not one per event. Rows of runs deleted in
 * the meantime (rollback, stateless cleanup) are skipped rather than failing the batch. Rows are
 * inserted in the order given (the semi-join may reorder them otherwise), because that order
 * numbers them in their thread's stream (run_events.stream_position).
 *
 * The commit does not wait for the WAL flush (commit-flush.ts): a run's events are durable once its
 * outcome is, whose settle commits after them.
 */
export async function insertRunEvents(manager: EntityManager, events: RunStreamEvent[]): Promise<void> {
  if (events.length === 0) return;
  await runStatement(manager, INSERT_RUN_EVENTS, [
    events.map((e) => e.runId),
    events.map((e) => e.seq),
    events.map((e) => e.event),
    events.map((e) => e.data),
  ]);
}
