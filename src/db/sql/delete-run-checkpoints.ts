import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/**
 * Rollback: removes every checkpoint (and its pending writes) that one run wrote, found through
 * the run_id stamp RunStampingCheckpointer puts in checkpoint metadata. The thread's state is then
 * the last checkpoint before the run. Channel blobs are left: they are keyed by channel version,
 * not by checkpoint, may be shared with older checkpoints, and unreferenced ones are never read.
 */
export async function deleteRunCheckpoints(manager: EntityManager, threadId: string, runId: string): Promise<void> {
  await runStatement(
    manager,
    `WITH doomed AS (
       DELETE FROM checkpoints WHERE thread_id = $1 AND metadata ->> 'run_id' = $2
       RETURNING checkpoint_ns, checkpoint_id
     )
     DELETE FROM checkpoint_writes w USING doomed
     WHERE w.thread_id = $1 AND w.checkpoint_ns = doomed.checkpoint_ns AND w.checkpoint_id = doomed.checkpoint_id`,
    [threadId, runId],
  );
}
