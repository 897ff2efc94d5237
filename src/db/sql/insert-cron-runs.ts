import type { EntityManager } from "typeorm";
import type { Run } from "../../domain/run.js";

/**
 * Queues the runs of a batch of cron firings (status pending, due at once) with the cron that
 * fired each. One statement for the batch: a JSON array of positional rows, as upsertTraceRuns
 * sends trace runs. The runs trigger NOTIFYs hangar_run_pending per row; PostgreSQL folds
 * identical notifications of one transaction into one, so the workers wake once. The same
 * statement records each firing (cron_firings, pending until its run's triggers say otherwise).
 */
export async function insertCronRuns(manager: EntityManager, runs: Array<{ run: Run; cronId: string }>): Promise<void> {
  if (runs.length === 0) return;
  const rows = runs.map(({ run, cronId }) => [
    run.runId,
    run.threadId,
    run.assistantId,
    run.metadata,
    run.multitaskStrategy,
    run.kwargs,
    run.createdAt.toISOString(),
    run.runAfter.toISOString(),
    cronId,
  ]);
  await manager.query(
    `WITH queued AS (
       INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, multitask_strategy, kwargs,
         created_at, updated_at, run_after, attempt, cron_id)
       SELECT (r ->> 0)::uuid, (r ->> 1)::uuid, (r ->> 2)::uuid, 'pending', r -> 3, r ->> 4, r -> 5,
         (r ->> 6)::timestamptz, (r ->> 6)::timestamptz, (r ->> 7)::timestamptz, 0, (r ->> 8)::uuid
       FROM jsonb_array_elements($1::jsonb) AS r
       RETURNING run_id, thread_id, cron_id, created_at
     )
     INSERT INTO cron_firings (firing_id, cron_id, run_id, thread_id, status, fired_at)
     SELECT run_id, cron_id, run_id, thread_id, 'pending', created_at FROM queued`,
    [JSON.stringify(rows)],
  );
}
