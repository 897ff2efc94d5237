import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";
import { ENQUEUED_FROM_GIVEN, GIVEN_RUNS, NOT_PLAINLY_CREATED, enqueueInput, enqueueOutcomes, type EnqueuedRow, type EnqueueOutcome, type RunToEnqueue } from "./enqueue-rows.js";

/**
 * The runs of a batch of cron firings queued as enqueueRuns queues runs (hangar_enqueue_runs,
 * which applies the multitask rule), and each firing recorded in cron_firings by the same
 * statement: a queued run's firing is pending (firing_id = run_id; triggers on runs keep it up to
 * date), a firing a busy thread refused (multitask_strategy reject) is recorded without a run.
 * Runs deferred ('thread-locked', 'thread-missing') record nothing: their slot is still due.
 *
 * One statement where there were two (the enqueue, then a firings INSERT from a second JSON
 * document of run, cron and thread ids): the firings are read from the enqueue's own arrays.
 * Every entry must have its cronId.
 */
export async function enqueueCronRuns(manager: EntityManager, entries: readonly RunToEnqueue[], firedAt: Date): Promise<EnqueueOutcome[]> {
  if (entries.length === 0) return [];
  const { order, json } = enqueueInput(entries);
  // Inside the firing's TypeORM transaction, so sent unnamed (run-statement.ts). Measured, a named
  // statement is no cheaper for a batch of 1,000 (PostgreSQL CPU 80 ms named, 78 ms unnamed):
  // most of the bind is parsing the jsonb parameter, which a named statement does too.
  const { rows } = await runStatement<EnqueuedRow>(
    manager,
    `WITH ${GIVEN_RUNS}, enqueued AS MATERIALIZED (${ENQUEUED_FROM_GIVEN}), firings AS (
       INSERT INTO cron_firings (firing_id, cron_id, run_id, thread_id, status, fired_at, ended_at)
       SELECT CASE WHEN e.outcome = 'created' THEN g.run_ids[e.position] ELSE gen_random_uuid() END, g.cron_ids[e.position],
         CASE WHEN e.outcome = 'created' THEN g.run_ids[e.position] END, g.thread_ids[e.position],
         CASE WHEN e.outcome = 'created' THEN 'pending' ELSE 'refused' END, $2::timestamptz,
         CASE WHEN e.outcome = 'busy' THEN $2::timestamptz END
       FROM enqueued e CROSS JOIN given g
       WHERE e.outcome IN ('created', 'busy')
     )
     SELECT e.position, e.outcome, e.ended_run_ids, e.signalled_run_ids FROM enqueued e
     WHERE ${NOT_PLAINLY_CREATED}`,
    [json, firedAt],
  );
  return enqueueOutcomes(entries, order, rows);
}
