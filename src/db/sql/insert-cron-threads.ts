import type { EntityManager } from "typeorm";
import type { JsonObject } from "../../domain/json.js";

/**
 * The new threads of a batch of stateless cron firings, busy from the start (their run is queued
 * in the same transaction). One statement for the batch: a JSON array of [thread_id, metadata].
 */
export async function insertCronThreads(
  manager: EntityManager,
  threads: Array<{ threadId: string; metadata: JsonObject }>,
  now: Date,
): Promise<void> {
  if (threads.length === 0) return;
  await manager.query(
    `INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at, metadata, status)
     SELECT (r ->> 0)::uuid, $2, $2, $2, r -> 1, 'busy' FROM jsonb_array_elements($1::jsonb) AS r`,
    [JSON.stringify(threads.map((thread) => [thread.threadId, thread.metadata])), now],
  );
}
