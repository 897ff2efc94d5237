import type { EntityManager } from "typeorm";
import type { JsonObject } from "../../domain/json.js";
import { runStatement } from "../run-statement.js";

/**
 * The encryption context a thread's JSON fields are sealed with, recording `fallback` first when
 * the thread has none yet (written before JSON encryption was turned on): the run engine seals
 * the values a run leaves with it. Locks the thread row only for this statement, and only when
 * it records the fallback.
 */
export async function threadEncryptionContext(manager: EntityManager, threadId: string, fallback: JsonObject): Promise<JsonObject | null> {
  const { rows: [current] } = await runStatement<{ encryption_context: JsonObject | null }>(
    manager,
    "SELECT encryption_context FROM threads WHERE thread_id = $1",
    [threadId],
  );
  if (!current) return null;
  if (current.encryption_context !== null) return current.encryption_context;
  const { rows: [recorded] } = await runStatement<{ encryption_context: JsonObject }>(
    manager,
    "UPDATE threads SET encryption_context = COALESCE(encryption_context, $2::jsonb) WHERE thread_id = $1 RETURNING encryption_context",
    [threadId, JSON.stringify(fallback)],
  );
  return recorded?.encryption_context ?? null;
}
