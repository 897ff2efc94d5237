import type { EntityManager } from "typeorm";
import type { JsonObject } from "../../domain/json.js";
import type { Run } from "../../domain/run.js";
import { preparedStatement, queryPrepared } from "../prepared-statement.js";

export type EnqueueOutcome =
  | { outcome: "created" }
  | { outcome: "assistant-changed" }
  | { outcome: "busy"; activeRunIds: string[] }
  | { outcome: "thread-missing" };

const ENQUEUE_RUN = preparedStatement(
  "enqueue_run",
  `SELECT outcome, active_run_ids FROM hangar_enqueue_run($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
);

/**
 * Queues a run in one round trip (hangar_enqueue_run, migrations/…-create-run-functions): locks
 * the thread (creating it when asked), and inserts the run unless the thread has active runs and
 * the strategy is not enqueue, in which case nothing changes and the active run ids come back.
 * With `assistantSeen`, it first checks the assistant is still that version (same updated_at),
 * and otherwise answers 'assistant-changed' without writing anything.
 */
export async function enqueueRun(
  manager: EntityManager,
  run: Run,
  thread: { metadata: JsonObject; createIfMissing: boolean },
  assistantSeen: { version: number; updatedAt: Date } | null,
): Promise<EnqueueOutcome> {
  const rows = await queryPrepared<{ outcome: EnqueueOutcome["outcome"]; active_run_ids: string[] }>(
    manager,
    ENQUEUE_RUN,
    [
      run.runId,
      run.threadId,
      run.assistantId,
      run.status,
      JSON.stringify(run.metadata),
      run.multitaskStrategy,
      JSON.stringify(run.kwargs),
      run.createdAt,
      run.runAfter,
      JSON.stringify(thread.metadata),
      thread.createIfMissing,
      assistantSeen?.version ?? null,
      assistantSeen?.updatedAt ?? null,
    ],
  );
  const [row] = rows;
  if (row.outcome === "busy") return { outcome: "busy", activeRunIds: row.active_run_ids };
  return { outcome: row.outcome };
}
