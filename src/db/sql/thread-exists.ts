import type { EntityManager } from "typeorm";

export async function threadExists(manager: EntityManager, threadId: string): Promise<boolean> {
  const rows: unknown[] = await manager.query(`SELECT 1 FROM threads WHERE thread_id = $1`, [threadId]);
  return rows.length > 0;
}
