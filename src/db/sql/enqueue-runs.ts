import type { EntityManager } from "typeorm";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";
import { enqueueRun } from "./enqueue-run.js";
import { ENQUEUED_FROM_GIVEN, GIVEN_RUNS, NOT_PLAINLY_CREATED, enqueueInput, enqueueOutcomes, type EnqueuedRow, type EnqueueOutcome, type RunToEnqueue } from "./enqueue-rows.js";

const ENQUEUE_RUNS = preparedStatement(
  "enqueue_runs_positional",
  `WITH ${GIVEN_RUNS}
   SELECT e.position, e.outcome, e.ended_run_ids, e.signalled_run_ids FROM (${ENQUEUED_FROM_GIVEN}) e
   WHERE ${NOT_PLAINLY_CREATED}`,
);

/**
 * Queues runs in one statement, hangar_enqueue_runs (migrations/…-decide-multitask-on-enqueue,
 * …-enqueue-runs-in-sets): runs that bring a new thread, and cron runs that queue on existing
 * threads, are inserted in sets; the others go through hangar_enqueue_run one by one. That
 * function is where the multitask rule lives: under the thread's row lock (creating the thread when asked) it queues the run,
 * refuses it ('busy', nothing written) under `reject`, or first cancels the thread's active runs
 * under `interrupt` / `rollback`. With `assistantSeen`, it first checks the assistant is still
 * that version and otherwise answers 'assistant-changed' without writing anything. Answers per
 * run, in order. Outside a transaction the statement commits on its own; inside one (a batch of
 * runs) it is part of the caller's all-or-nothing. Cron firings queue through enqueueCronRuns,
 * which also records them. A batch of one run (most API runs) goes straight to hangar_enqueue_run
 * instead (enqueue-run.ts): the same decision, without the batch's packing and unpacking.
 */
export async function enqueueRuns(manager: EntityManager, entries: readonly RunToEnqueue[]): Promise<EnqueueOutcome[]> {
  if (entries.length === 0) return [];
  if (entries.length === 1) return [await enqueueRun(manager, entries[0]!)];
  const { order, json } = enqueueInput(entries);
  const { rows } = await runStatement<EnqueuedRow>(manager, ENQUEUE_RUNS, [json]);
  return enqueueOutcomes(entries, order, rows);
}
