import type { EntityManager } from "typeorm";
import type { JsonObject } from "../../domain/json.js";

/**
 * The encryption context a thread's JSON fields are sealed with, recording `fallback` first when
 * the thread has none yet (written before JSON encryption was turned on): the run engine seals
 * the values a run leaves with it. Locks the thread row only for this statement, and only when
 * it records the fallback.
 */
export async function threadEncryptionContext(manager: EntityManager, threadId: string, fallback: JsonObject): Promise<JsonObject | null> {
  const [current]: Array<{ encryption_context: JsonObject | null }> = await manager.query(
    "SELECT encryption_context FROM threads WHERE thread_id = $1",
    [threadId],
  );
  if (!current) return null;
  if (current.encryption_context !== null) return current.encryption_context;
  // A SELECT around the UPDATE: TypeORM answers a bare UPDATE … RETURNING as [rows, count].
  const [recorded]: Array<{ encryption_context: JsonObject }> = await manager.query(
    `WITH recorded AS (
       UPDATE threads SET encryption_context = COALESCE(encryption_context, $2::jsonb) WHERE thread_id = $1 RETURNING encryption_context
     ) SELECT encryption_context FROM recorded`,
    [threadId, JSON.stringify(fallback)],
  );
  return recorded?.encryption_context ?? null;
}
