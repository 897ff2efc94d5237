import type { EntityManager } from "typeorm";
import type { JsonObject } from "../../domain/json.js";

/**
 * markThreadRunning for a batch of threads that got a run (thread cron firings): busy, and their
 * metadata names the graph and assistant. The caller holds the threads' row locks.
 */
export async function markThreadsRunning(
  manager: EntityManager,
  threads: Array<{ threadId: string; metadata: JsonObject }>,
  now: Date,
): Promise<void> {
  if (threads.length === 0) return;
  await manager.query(
    `UPDATE threads SET status = 'busy', metadata = threads.metadata || (r -> 1), updated_at = $2
     FROM jsonb_array_elements($1::jsonb) AS r WHERE threads.thread_id = (r ->> 0)::uuid`,
    [JSON.stringify(threads.map((thread) => [thread.threadId, thread.metadata])), now],
  );
}
