import type { EntityManager } from "typeorm";
import type { JsonObject } from "../../domain/json.js";

/** A new idle thread (run creation with if_not_exists=create, and stateless runs). */
export async function insertThread(
  manager: EntityManager,
  thread: { threadId: string; metadata: JsonObject; now: Date },
): Promise<void> {
  await manager.query(
    `INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at, metadata)
     VALUES ($1, $3, $3, $3, $2) ON CONFLICT (thread_id) DO NOTHING`,
    [thread.threadId, thread.metadata, thread.now],
  );
}
