import type { EntityManager } from "typeorm";
import type { Thread } from "../../domain/thread.js";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";
import { jsonParameter } from "./json-parameter.js";

const INSERT_THREAD = preparedStatement(
  "insert_thread",
  `INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at, metadata, config, status, "values",
     interrupts, error, ttl_minutes, encryption_context)
   VALUES ($1, $2, $3, $4, CAST($5 AS jsonb), CAST($6 AS jsonb), $7, CAST($8 AS jsonb), CAST($9 AS jsonb), CAST($10 AS jsonb), $11, CAST($12 AS jsonb))
   ON CONFLICT (thread_id) DO NOTHING`,
);

/** Stores `thread` (metadata and values as stored: sealed when encryption is on); false when its id exists. */
export async function insertThread(manager: EntityManager, thread: Thread): Promise<boolean> {
  const { affected } = await runStatement(manager, INSERT_THREAD, [
    thread.threadId,
    thread.createdAt,
    thread.updatedAt,
    thread.stateUpdatedAt,
    jsonParameter(thread.metadata),
    jsonParameter(thread.config),
    thread.status,
    jsonParameter(thread.values),
    jsonParameter(thread.interrupts),
    jsonParameter(thread.error),
    thread.ttlMinutes ?? null,
    jsonParameter(thread.encryptionContext),
  ]);
  return affected === 1;
}
