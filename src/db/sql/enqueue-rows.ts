import type { JsonObject } from "../../domain/json.js";
import type { Run } from "../../domain/run.js";
import { threadLockOrder } from "./thread-lock-order.js";

/**
 * What the statements that queue runs through hangar_enqueue_runs share (enqueue-runs.ts for
 * every run, enqueue-cron-runs.ts for a cron batch, which also records the firings): the runs as
 * they are sent, how the statement reads them back into the function's arrays, and how its
 * answer maps to each run.
 */

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
 * CTE `given`: the runs of $1 (a JSON array of enqueueRow arrays) as hangar_enqueue_runs' 15
 * arrays, in the order sent.
 *
 * Each run is a JSON array, its fields by position (enqueueRow), not an object with named keys:
 * PostgreSQL parses the parameter as jsonb before anything else (jsonb_in, about 14 ns a byte on
 * the bench machine), and the 15 key names were a third of a cron run's 1,040 bytes. A batch of
 * 1,000 stateless firings: 1,037 KB as objects, 806 KB as arrays; PostgreSQL CPU for the `given`
 * step 22 ms -> 15 ms (median of 14, loaded 2-core machine).
 *
 * The arrays are aggregated from one subquery sorted by position, not with an ORDER BY inside
 * each array_agg: PostgreSQL 15 sorts the input of every ordered aggregate separately (15 sorts
 * of the batch, kwargs included). An aggregate over a sorted subquery takes the rows in its order
 * when the level that aggregates has nothing else (no join) to reorder them, as here.
 */
export const GIVEN_RUNS = `given AS (
     SELECT array_agg(r.run_id) AS run_ids, array_agg(r.thread_id) AS thread_ids,
       array_agg(r.assistant_id) AS assistant_ids, array_agg(r.metadata) AS metadata,
       array_agg(r.multitask_strategy) AS strategies, array_agg(r.kwargs) AS kwargs,
       array_agg(r.created_at) AS created_at, array_agg(r.run_after) AS run_after,
       array_agg(r.cron_id) AS cron_ids, array_agg(r.thread_metadata) AS thread_metadata,
       array_agg(r.create_thread) AS create_thread, array_agg(r.skip_locked_thread) AS skip_locked_thread,
       array_agg(r.assistant_version) AS assistant_versions, array_agg(r.assistant_updated_at) AS assistant_updated_at,
       array_agg(r.encryption_context) AS encryption_contexts
     FROM (
       -- JSON null read as SQL NULL, as for the scalar fields (->>).
       SELECT (r.v ->> 0)::uuid AS run_id, (r.v ->> 1)::uuid AS thread_id, (r.v ->> 2)::uuid AS assistant_id,
         nullif(r.v -> 3, 'null') AS metadata, r.v ->> 4 AS multitask_strategy, nullif(r.v -> 5, 'null') AS kwargs,
         (r.v ->> 6)::timestamptz AS created_at, (r.v ->> 7)::timestamptz AS run_after, (r.v ->> 8)::uuid AS cron_id,
         nullif(r.v -> 9, 'null') AS thread_metadata, (r.v ->> 10)::boolean AS create_thread,
         (r.v ->> 11)::boolean AS skip_locked_thread, (r.v ->> 12)::integer AS assistant_version,
         (r.v ->> 13)::timestamptz AS assistant_updated_at, nullif(r.v -> 14, 'null') AS encryption_context
       FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS r (v, position)
       ORDER BY r.position
     ) r
   )`;

/** hangar_enqueue_runs over `given`: per run, its position (1-based, as sent) and outcome. */
export const ENQUEUED_FROM_GIVEN = `SELECT e.position, e.outcome, e.ended_run_ids, e.signalled_run_ids
     FROM given g CROSS JOIN LATERAL hangar_enqueue_runs(g.run_ids, g.thread_ids, g.assistant_ids, g.metadata, g.strategies,
       g.kwargs, g.created_at, g.run_after, g.cron_ids, g.thread_metadata, g.create_thread, g.skip_locked_thread,
       g.assistant_versions, g.assistant_updated_at, g.encryption_contexts)
       WITH ORDINALITY AS e (outcome, ended_run_ids, signalled_run_ids, position)`;

/**
 * Which of the enqueued runs `e` the statement answers: only those whose outcome is not a plain
 * 'created' (a refusal, or runs cancelled to make way), so a batch of 1,000 queued runs answers
 * no rows instead of 1,000 rows of two uuid[] each to parse.
 */
export const NOT_PLAINLY_CREATED = `e.outcome <> 'created' OR cardinality(e.ended_run_ids) > 0 OR cardinality(e.signalled_run_ids) > 0`;

export interface EnqueuedRow {
  position: string;
  outcome: EnqueueOutcome["outcome"];
  ended_run_ids: string[];
  signalled_run_ids: string[];
}

/**
 * The batch as $1, in thread lock order (thread-lock-order.ts; stable: of two runs of one thread
 * the second sees the first as active, as two statements would), with that order to read the
 * answer back (enqueueOutcomes).
 *
 * The runs arrive as one JSON document, not one array parameter per column: pg writes an array
 * parameter element by element, escaping each (every quote of a metadata or kwargs document;
 * every Date through its own formatter); for a batch of 1,000 cron runs the 15 array parameters
 * took 260-360 ms of the server's CPU to write, one JSON.stringify of the batch 36 ms.
 */
export function enqueueInput(entries: readonly RunToEnqueue[]): { order: number[]; json: string } {
  const order = threadLockOrder(entries, (entry) => entry.run.threadId);
  return { order, json: JSON.stringify(order.map((index) => enqueueRow(entries[index]!))) };
}

/** Each run's outcome, in the order of `entries`; runs absent from the answer were queued, nothing cancelled. */
export function enqueueOutcomes(entries: readonly RunToEnqueue[], order: readonly number[], rows: readonly EnqueuedRow[]): EnqueueOutcome[] {
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
 * One run as GIVEN_RUNS reads it, field by position. Times as ISO strings: a Date's toJSON takes
 * JSON.stringify off its fast path (a 1,000-run batch took twice as long with two Dates per run).
 */
function enqueueRow(entry: RunToEnqueue): unknown[] {
  const { run, stored, thread } = entry;
  return [
    run.runId, // 0 run_id
    run.threadId, // 1 thread_id
    run.assistantId, // 2 assistant_id
    stored.metadata, // 3 metadata
    run.multitaskStrategy, // 4 multitask_strategy
    stored.kwargs, // 5 kwargs
    run.createdAt.toISOString(), // 6 created_at
    run.runAfter.toISOString(), // 7 run_after
    entry.cronId, // 8 cron_id
    thread.metadata, // 9 thread_metadata
    thread.createIfMissing, // 10 create_thread
    thread.skipLockedThread, // 11 skip_locked_thread
    entry.assistantSeen?.version ?? null, // 12 assistant_version
    entry.assistantSeen?.updatedAt.toISOString() ?? null, // 13 assistant_updated_at
    stored.encryptionContext, // 14 encryption_context
  ];
}
