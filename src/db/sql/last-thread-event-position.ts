import type { EntityManager } from "typeorm";

/** The stream position of a thread's last stored run event; 0 when it has none. Reads only. */
export async function lastThreadEventPosition(manager: EntityManager, threadId: string): Promise<number> {
  const [row]: Array<{ position: string | null }> = await manager.query(
    `SELECT max(e.stream_position) AS position FROM run_events e JOIN runs r ON r.run_id = e.run_id WHERE r.thread_id = $1`,
    [threadId],
  );
  return Number(row?.position ?? 0);
}
