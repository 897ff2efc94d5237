import type pg from "pg";
import { runStatement } from "../run-statement.js";

/**
 * BaseCheckpointSaver.deleteThread: a thread's checkpoints, channel values and pending writes, in
 * one statement (so atomically, on any pooled connection). Takes the rows' locks only.
 * Hangar's own thread deletion goes through deleteThreadCheckpoints in its transaction instead.
 */
export async function purgeThreadCheckpoints(pool: pg.Pool | pg.PoolClient, threadId: string): Promise<void> {
  await runStatement(
    pool,
    `WITH blobs AS (DELETE FROM checkpoint_blobs WHERE thread_id = $1),
          writes AS (DELETE FROM checkpoint_writes WHERE thread_id = $1)
     DELETE FROM checkpoints WHERE thread_id = $1`,
    [threadId],
  );
}
