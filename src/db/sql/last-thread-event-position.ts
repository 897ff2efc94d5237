import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/** The stream position of a thread's last stored run event; 0 when it has none. Reads only. */
export async function lastThreadEventPosition(manager: EntityManager, threadId: string): Promise<number> {
  const { rows: [row] } = await runStatement<{ position: string | null }>(
    manager,
    `SELECT max(e.stream_position) AS position FROM run_events e JOIN runs r ON r.run_id = e.run_id WHERE r.thread_id = $1`,
    [threadId],
  );
  return Number(row?.position ?? 0);
}
