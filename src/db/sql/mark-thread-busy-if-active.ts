import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/** A thread with a pending or running run is busy, whatever its last run left it as. */
export async function markThreadBusyIfActive(manager: EntityManager, threadId: string): Promise<void> {
  await runStatement(
    manager,
    `UPDATE threads SET status = 'busy'
     WHERE thread_id = $1 AND EXISTS (SELECT 1 FROM runs WHERE thread_id = $1 AND status IN ('pending', 'running'))`,
    [threadId],
  );
}
