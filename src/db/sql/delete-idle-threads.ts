import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/**
 * Deletes the given threads that have no pending or running run and whose metadata contains
 * `metadataContains` (the caller's auth filters; {} for all); runs and crons go by foreign key,
 * checkpoints are the caller's (same transaction). Locks the deleted rows.
 */
export async function deleteIdleThreads(manager: EntityManager, threadIds: string[], metadataContains: Record<string, unknown>): Promise<string[]> {
  const { rows } = await runStatement<{ thread_id: string }>(
    manager,
    `DELETE FROM threads t
     WHERE t.thread_id = ANY($1::uuid[]) AND t.metadata @> $2::jsonb
       AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.thread_id = t.thread_id AND r.status IN ('pending', 'running'))
     RETURNING t.thread_id::text AS thread_id`,
    [threadIds, JSON.stringify(metadataContains)],
  );
  return rows.map((row) => row.thread_id);
}
