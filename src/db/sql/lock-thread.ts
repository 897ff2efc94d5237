import type { EntityManager } from "typeorm";
import type { JsonObject } from "../../domain/json.js";

/**
 * Locks a thread row for the caller's transaction: run creation and cancellation on one thread
 * take this lock first, so multitask decisions see each other's runs.
 */
export async function lockThread(
  manager: EntityManager,
  threadId: string,
): Promise<{ threadId: string; metadata: JsonObject } | null> {
  const rows: Array<{ thread_id: string; metadata: JsonObject }> = await manager.query(
    `SELECT thread_id, metadata FROM threads WHERE thread_id = $1 FOR UPDATE`,
    [threadId],
  );
  return rows[0] ? { threadId: rows[0].thread_id, metadata: rows[0].metadata } : null;
}
