import type { EntityManager } from "typeorm";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";

const DELETE_THREAD = preparedStatement("delete_thread", `DELETE FROM threads WHERE thread_id = $1`);

/** Deletes a thread row (its runs and crons go by foreign key; its checkpoints do not: thread-checkpoints.ts). */
export async function deleteThread(manager: EntityManager, threadId: string): Promise<void> {
  await runStatement(manager, DELETE_THREAD, [threadId]);
}
