import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/**
 * Locks (FOR UPDATE) the given threads that have no pending or running run and whose metadata
 * contains `metadataContains`, and returns their ids: the threads whose history may be pruned.
 * The lock keeps runs from starting on them until the caller's transaction ends.
 */
export async function lockIdleThreads(manager: EntityManager, threadIds: string[], metadataContains: Record<string, unknown>): Promise<string[]> {
  const { rows } = await runStatement<{ thread_id: string }>(
    manager,
    `SELECT t.thread_id::text AS thread_id FROM threads t
     WHERE t.thread_id = ANY($1::uuid[]) AND t.metadata @> $2::jsonb
       AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.thread_id = t.thread_id AND r.status IN ('pending', 'running'))
     ORDER BY t.thread_id
     FOR UPDATE OF t`,
    [threadIds, JSON.stringify(metadataContains)],
  );
  return rows.map((row) => row.thread_id);
}
