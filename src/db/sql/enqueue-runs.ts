import type { EntityManager } from "typeorm";
import type { JsonObject } from "../../domain/json.js";
import type { Run } from "../../domain/run.js";
import { preparedStatement, queryPrepared } from "../prepared-statement.js";
import { threadLockOrder } from "./thread-lock-order.js";

export type EnqueueOutcome =
  | { outcome: "created" }
  | { outcome: "assistant-changed" }
  | { outcome: "busy"; activeRunIds: string[] }
  | { outcome: "thread-missing" };

export interface RunToEnqueue {
  run: Run;
  thread: { metadata: JsonObject; createIfMissing: boolean };
  /** The assistant version the run was composed from, to check it is still current; null: unchecked. */
  assistantSeen: { version: number; updatedAt: Date } | null;
}

const ENQUEUE_RUNS = preparedStatement(
  "enqueue_runs",
  `SELECT e.outcome, e.active_run_ids
   FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[],
               $9::timestamptz[], $10::text[], $11::boolean[], $12::integer[], $13::timestamptz[])
     WITH ORDINALITY AS u (run_id, thread_id, assistant_id, status, metadata, multitask_strategy, kwargs, created_at,
                           run_after, thread_metadata, create_thread, assistant_version, assistant_updated_at, ord)
   CROSS JOIN LATERAL hangar_enqueue_run(u.run_id, u.thread_id, u.assistant_id, u.status, u.metadata::jsonb,
     u.multitask_strategy, u.kwargs::jsonb, u.created_at, u.run_after, u.thread_metadata::jsonb, u.create_thread,
     u.assistant_version, u.assistant_updated_at) e
   ORDER BY u.ord`,
);

/**
 * Queues runs in one statement and one commit, calling hangar_enqueue_run
 * (migrations/…-create-run-functions, …-check-assistant-on-enqueue) once per run: it locks the
 * thread (creating it when asked) and inserts the run unless the thread has active runs and the
 * strategy is not enqueue, in which case nothing changes and the active run ids come back. With
 * `assistantSeen`, it first checks the assistant is still that version and otherwise answers
 * 'assistant-changed' without writing anything. Answers per run, in order.
 *
 * Runs are queued in thread lock order (thread-lock-order.ts; stable: of two runs of one thread
 * the second sees the first as active, as two statements would).
 */
export async function enqueueRuns(manager: EntityManager, entries: readonly RunToEnqueue[]): Promise<EnqueueOutcome[]> {
  const order = threadLockOrder(entries, (entry) => entry.run.threadId);
  const sorted = order.map((index) => entries[index]!);
  const column = <T>(pick: (entry: RunToEnqueue) => T) => sorted.map(pick);
  const rows = await queryPrepared<{ outcome: EnqueueOutcome["outcome"]; active_run_ids: string[] }>(manager, ENQUEUE_RUNS, [
    column((entry) => entry.run.runId),
    column((entry) => entry.run.threadId),
    column((entry) => entry.run.assistantId),
    column((entry) => entry.run.status),
    column((entry) => JSON.stringify(entry.run.metadata)),
    column((entry) => entry.run.multitaskStrategy),
    column((entry) => JSON.stringify(entry.run.kwargs)),
    column((entry) => entry.run.createdAt),
    column((entry) => entry.run.runAfter),
    column((entry) => JSON.stringify(entry.thread.metadata)),
    column((entry) => entry.thread.createIfMissing),
    column((entry) => entry.assistantSeen?.version ?? null),
    column((entry) => entry.assistantSeen?.updatedAt ?? null),
  ]);
  const outcomes: EnqueueOutcome[] = new Array(entries.length);
  order.forEach((index, position) => {
    const row = rows[position]!;
    outcomes[index] = row.outcome === "busy" ? { outcome: "busy", activeRunIds: row.active_run_ids } : { outcome: row.outcome };
  });
  return outcomes;
}
