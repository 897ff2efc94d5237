import type { EntityManager } from "typeorm";
import type { JsonObject } from "../../domain/json.js";

/**
 * A thread that got a run is busy, and remembers its graph and assistant in metadata the way
 * LangGraph Platform does (state reads find the graph through metadata.graph_id).
 */
export async function markThreadRunning(
  manager: EntityManager,
  update: { threadId: string; metadata: JsonObject; now: Date },
): Promise<void> {
  await manager.query(
    `UPDATE threads SET status = 'busy', metadata = metadata || $2::jsonb, updated_at = $3 WHERE thread_id = $1`,
    [update.threadId, update.metadata, update.now],
  );
}
