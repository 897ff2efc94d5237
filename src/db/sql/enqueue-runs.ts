import type { EntityManager } from "typeorm";
import type { JsonObject } from "../../domain/json.js";
import type { Run } from "../../domain/run.js";
import { preparedStatement } from "../prepared-statement.js";
import { enqueueRun } from "./enqueue-run.js";
import { threadLockOrder } from "./thread-lock-order.js";
import { runStatement } from "../run-statement.js";

/** Runs a multitask `interrupt` / `rollback` cancelled to make way for the new run. */
export interface RunsCancelledOnEnqueue {
  /** Pending runs: ended (interrupted; deleted under rollback). */
  endedRunIds: string[];
  /** Running runs: cancel_action set for the worker that holds them. */
  signalledRunIds: string[];
}

export type EnqueueOutcome =
  | { outcome: "created"; cancelled: RunsCancelledOnEnqueue }
  | { outcome: "assistant-changed" }
  /** The thread has active runs and the strategy is reject: nothing was written. */
  | { outcome: "busy" }
  | { outcome: "thread-missing" }
  /** Only with `skipLockedThread`: another transaction holds the thread; nothing was written. */
  | { outcome: "thread-locked" };

export interface RunToEnqueue {
  run: Run;
  /**
   * The run's metadata and kwargs as stored (sealed by the deployment's encrypt.json, or as they
   * are), and the encryption context they were sealed with (null: in clear). A thread the
   * statement creates for the run gets the same context.
   */
  stored: { metadata: JsonObject; kwargs: JsonObject; encryptionContext: JsonObject | null };
  /** The cron whose firing queues the run; null for API runs. */
  cronId: string | null;
  thread: {
    metadata: JsonObject;
    createIfMissing: boolean;
    /** Answer 'thread-locked' rather than wait for a thread another transaction holds (cron firings). */
    skipLockedThread: boolean;
  };
  /** The assistant version the run was composed from, to check it is still current; null: unchecked. */
  assistantSeen: { version: number; updatedAt: Date } | null;
}

/**
 * The runs arrive as one JSON array of objects (jsonb_to_recordset), not as one array parameter
 * per column: pg writes an array parameter element by element, escaping each (every quote of a
 * metadata or kwargs document; every Date through its own formatter). Measured for a batch of
 * 1,000 cron runs on a busy 2-core machine: the 15 array parameters took 260-360 ms of CPU to
 * write, one JSON.stringify of the batch 36 ms; firing 10,000 crons took the server's CPU back
 * from ~1.5x to what it was before firings went through this statement. The answer lists only
 * runs whose outcome is not a plain 'created' (a refusal, or runs cancelled to make way), so a
 * batch of 1,000 queued runs answers no rows instead of 1,000 rows of two uuid[] each to parse.
 */
const ENQUEUE_RUNS = preparedStatement(
  "enqueue_runs_json",
  `WITH given AS (
     SELECT array_agg(r.run_id ORDER BY r.position) AS run_ids, array_agg(r.thread_id ORDER BY r.position) AS thread_ids,
       array_agg(r.assistant_id ORDER BY r.position) AS assistant_ids, array_agg(r.metadata ORDER BY r.position) AS metadata,
       array_agg(r.multitask_strategy ORDER BY r.position) AS strategies, array_agg(r.kwargs ORDER BY r.position) AS kwargs,
       array_agg(r.created_at ORDER BY r.position) AS created_at, array_agg(r.run_after ORDER BY r.position) AS run_after,
       array_agg(r.cron_id ORDER BY r.position) AS cron_ids, array_agg(r.thread_metadata ORDER BY r.position) AS thread_metadata,
       array_agg(r.create_thread ORDER BY r.position) AS create_thread,
       array_agg(r.skip_locked_thread ORDER BY r.position) AS skip_locked_thread,
       array_agg(r.assistant_version ORDER BY r.position) AS assistant_versions,
       array_agg(r.assistant_updated_at ORDER BY r.position) AS assistant_updated_at,
       array_agg(r.encryption_context ORDER BY r.position) AS encryption_contexts
     FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (
       run_id uuid, thread_id uuid, assistant_id uuid, metadata jsonb, multitask_strategy text, kwargs jsonb,
       created_at timestamptz, run_after timestamptz, cron_id uuid, thread_metadata jsonb, create_thread boolean,
       skip_locked_thread boolean, assistant_version integer, assistant_updated_at timestamptz, encryption_context jsonb
     )) WITH ORDINALITY AS r (run_id, thread_id, assistant_id, metadata, multitask_strategy, kwargs, created_at, run_after,
       cron_id, thread_metadata, create_thread, skip_locked_thread, assistant_version, assistant_updated_at, encryption_context, position)
   )
   SELECT e.position, e.outcome, e.ended_run_ids, e.signalled_run_ids
   FROM given g CROSS JOIN LATERAL hangar_enqueue_runs(g.run_ids, g.thread_ids, g.assistant_ids, g.metadata, g.strategies,
     g.kwargs, g.created_at, g.run_after, g.cron_ids, g.thread_metadata, g.create_thread, g.skip_locked_thread,
     g.assistant_versions, g.assistant_updated_at, g.encryption_contexts)
     WITH ORDINALITY AS e (outcome, ended_run_ids, signalled_run_ids, position)
   WHERE e.outcome <> 'created' OR cardinality(e.ended_run_ids) > 0 OR cardinality(e.signalled_run_ids) > 0`,
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
 * runs, a cron firing) it is part of the caller's all-or-nothing.
 *
 * Runs are queued in thread lock order (thread-lock-order.ts; stable: of two runs of one thread
 * the second sees the first as active, as two statements would). A batch of one run (most API
 * runs) goes straight to hangar_enqueue_run instead (enqueue-run.ts): the same decision, without
 * the batch's packing and unpacking.
 */
export async function enqueueRuns(manager: EntityManager, entries: readonly RunToEnqueue[]): Promise<EnqueueOutcome[]> {
  if (entries.length === 0) return [];
  if (entries.length === 1) return [await enqueueRun(manager, entries[0]!)];
  const order = threadLockOrder(entries, (entry) => entry.run.threadId);
  const { rows } = await runStatement<{ position: string; outcome: EnqueueOutcome["outcome"]; ended_run_ids: string[]; signalled_run_ids: string[] }>(
    manager,
    ENQUEUE_RUNS,
    [JSON.stringify(order.map((index) => enqueueRow(entries[index]!)))],
  );
  // Absent from the answer: queued, nothing cancelled.
  const outcomes: EnqueueOutcome[] = entries.map(() => ({ outcome: "created", cancelled: { endedRunIds: [], signalledRunIds: [] } }));
  for (const row of rows) {
    // position: 1-based, in the order the runs were sent (thread lock order).
    const index = order[Number(row.position) - 1]!;
    outcomes[index] =
      row.outcome === "created"
        ? { outcome: "created", cancelled: { endedRunIds: row.ended_run_ids, signalledRunIds: row.signalled_run_ids } }
        : { outcome: row.outcome };
  }
  return outcomes;
}

/**
 * One run as the statement's JSON object: the column names of jsonb_to_recordset's list. Times
 * as ISO strings: a Date's toJSON takes JSON.stringify off its fast path (a 1,000-run batch
 * took twice as long with two Dates per run).
 */
function enqueueRow(entry: RunToEnqueue) {
  const { run, stored, thread } = entry;
  return {
    run_id: run.runId,
    thread_id: run.threadId,
    assistant_id: run.assistantId,
    metadata: stored.metadata,
    multitask_strategy: run.multitaskStrategy,
    kwargs: stored.kwargs,
    created_at: run.createdAt.toISOString(),
    run_after: run.runAfter.toISOString(),
    cron_id: entry.cronId,
    thread_metadata: thread.metadata,
    create_thread: thread.createIfMissing,
    skip_locked_thread: thread.skipLockedThread,
    assistant_version: entry.assistantSeen?.version ?? null,
    assistant_updated_at: entry.assistantSeen?.updatedAt.toISOString() ?? null,
    encryption_context: stored.encryptionContext,
  };
}
