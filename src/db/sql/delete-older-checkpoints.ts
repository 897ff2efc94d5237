import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/**
 * Keeps only each thread's latest checkpoint (per checkpoint namespace, as the checkpointer orders
 * them: by checkpoint_id), with its pending writes and the channel values it points at; deletes
 * every older checkpoint, their writes and the blobs no remaining checkpoint refers to. Three
 * statements in the caller's transaction (the threads must be locked by it).
 */
export async function deleteOlderCheckpoints(manager: EntityManager, threadIds: string[]): Promise<void> {
  await runStatement(
    manager,
    `DELETE FROM checkpoint_writes w
     WHERE w.thread_id = ANY($1::text[])
       AND w.checkpoint_id <> (SELECT max(c.checkpoint_id) FROM checkpoints c
                               WHERE c.thread_id = w.thread_id AND c.checkpoint_ns = w.checkpoint_ns)`,
    [threadIds],
  );
  await runStatement(
    manager,
    `DELETE FROM checkpoints c
     WHERE c.thread_id = ANY($1::text[])
       AND c.checkpoint_id <> (SELECT max(latest.checkpoint_id) FROM checkpoints latest
                               WHERE latest.thread_id = c.thread_id AND latest.checkpoint_ns = c.checkpoint_ns)`,
    [threadIds],
  );
  await runStatement(
    manager,
    `DELETE FROM checkpoint_blobs b
     WHERE b.thread_id = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM checkpoints c
                       WHERE c.thread_id = b.thread_id AND c.checkpoint_ns = b.checkpoint_ns
                         AND c.checkpoint -> 'channel_versions' ->> b.channel = b.version)`,
    [threadIds],
  );
}
