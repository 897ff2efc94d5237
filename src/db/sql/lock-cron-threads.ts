import type { EntityManager } from "typeorm";

/**
 * Locks the threads of claimed thread crons, as run creation does before it queues a run, and
 * returns the ids it got. SKIP LOCKED, because the caller already holds cron row locks: a thread
 * being deleted is locked first and then waits for its crons (ON DELETE CASCADE), so waiting here
 * could deadlock. A cron whose thread is busy elsewhere is left due and fired on the next tick.
 */
export async function lockCronThreads(manager: EntityManager, threadIds: string[]): Promise<string[]> {
  const rows: Array<{ thread_id: string }> = await manager.query(
    `SELECT thread_id FROM threads WHERE thread_id = ANY($1::uuid[]) ORDER BY thread_id FOR UPDATE SKIP LOCKED`,
    [threadIds],
  );
  return rows.map((row) => row.thread_id);
}
