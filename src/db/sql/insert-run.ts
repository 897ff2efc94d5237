import type { EntityManager } from "typeorm";
import type { Run } from "../../domain/run.js";

/** Queues one run (status pending). The runs trigger NOTIFYs hangar_run_pending on commit. */
export async function insertRun(manager: EntityManager, run: Run): Promise<void> {
  await manager.query(
    `INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, multitask_strategy, kwargs,
       created_at, updated_at, run_after, attempt)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, 0)`,
    [
      run.runId,
      run.threadId,
      run.assistantId,
      run.status,
      run.metadata,
      run.multitaskStrategy,
      run.kwargs,
      run.createdAt,
      run.runAfter,
    ],
  );
}
