import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/**
 * Deletes the threads an assistant created (they name it in metadata.assistant_id, as runs record
 * it); their runs and crons go by foreign key. Returns their ids, for their checkpoints. Locks the
 * deleted rows.
 */
export async function deleteThreadsOfAssistant(manager: EntityManager, assistantId: string): Promise<string[]> {
  const { rows } = await runStatement<{ thread_id: string }>(
    manager,
    "DELETE FROM threads WHERE metadata ->> 'assistant_id' = $1 RETURNING thread_id",
    [assistantId],
  );
  return rows.map((row) => row.thread_id);
}
