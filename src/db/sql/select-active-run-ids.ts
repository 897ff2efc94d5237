import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/** Ids of pending and/or running runs, oldest first, optionally of one thread (bulk cancel). */
export async function selectActiveRunIds(
  manager: EntityManager,
  filter: { statuses: string[]; threadId: string | null },
): Promise<string[]> {
  const { rows } = await runStatement<{ run_id: string }>(
    manager,
    `SELECT run_id FROM runs WHERE status = ANY($1::text[]) AND ($2::uuid IS NULL OR thread_id = $2) ORDER BY created_at`,
    [filter.statuses, filter.threadId],
  );
  return rows.map((row) => row.run_id);
}
