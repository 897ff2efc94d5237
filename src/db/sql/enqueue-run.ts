import type { EntityManager } from "typeorm";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";
import type { EnqueueOutcome, RunToEnqueue } from "./enqueue-rows.js";

/**
 * One run, straight to hangar_enqueue_run (migrations/…-decide-multitask-on-enqueue,
 * …-add-run-encryption-context): the per-run decision hangar_enqueue_runs makes for a run it
 * cannot decide in a set, and the same decision it makes in its set steps (a new thread with its
 * first run; a cron run queued on a thread it skips when locked). Under the thread's row lock
 * (taken after the assistant check, and after creating the thread when asked), it queues the run,
 * refuses it, or cancels the thread's active runs first; answers one row.
 *
 * Why a statement of its own: most runs are queued one at a time (an API request at low
 * concurrency, a batch of one in the run queue), and for one run the batch statement's work is
 * overhead: the run as a JSON array, unpacked into 15 arrays, walked by a PL/pgSQL loop that
 * calls this function. Measured on a 2-core machine at a load of ~4, PostgreSQL's bind + execute
 * of a run on an existing thread (multitask reject, assistant checked): 0.31 ms through
 * hangar_enqueue_runs, 0.21 ms here (p50 of 900 each, log_min_duration_statement).
 *
 * Times are sent as ISO strings, as the batch statement sends them: pg formats a Date through
 * its own slower path. Inside a TypeORM transaction the statement runs as plain text on it.
 */
const ENQUEUE_RUN = preparedStatement(
  "enqueue_run",
  `SELECT e.outcome, e.ended_run_ids, e.signalled_run_ids
   FROM hangar_enqueue_run($1::uuid, $2::uuid, $3::uuid, $4::jsonb, $5::text, $6::jsonb, $7::timestamptz, $8::timestamptz,
     $9::uuid, $10::jsonb, $11::boolean, $12::boolean, $13::integer, $14::timestamptz, $15::jsonb) AS e`,
);

/** Queues one run in one statement: what enqueueRuns answers for a batch of that one run. */
export async function enqueueRun(manager: EntityManager, entry: RunToEnqueue): Promise<EnqueueOutcome> {
  const { run, stored, thread } = entry;
  const { rows } = await runStatement<{ outcome: EnqueueOutcome["outcome"]; ended_run_ids: string[]; signalled_run_ids: string[] }>(manager, ENQUEUE_RUN, [
    run.runId,
    run.threadId,
    run.assistantId,
    stored.metadata,
    run.multitaskStrategy,
    stored.kwargs,
    run.createdAt.toISOString(),
    run.runAfter.toISOString(),
    entry.cronId,
    thread.metadata,
    thread.createIfMissing,
    thread.skipLockedThread,
    entry.assistantSeen?.version ?? null,
    entry.assistantSeen?.updatedAt.toISOString() ?? null,
    stored.encryptionContext,
  ]);
  const row = rows[0];
  if (!row) throw new Error(`hangar_enqueue_run answered nothing for run ${run.runId}`);
  return row.outcome === "created"
    ? { outcome: "created", cancelled: { endedRunIds: row.ended_run_ids, signalledRunIds: row.signalled_run_ids } }
    : { outcome: row.outcome };
}
