import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/** Deletes runs (their stored events cascade). Returns the ids that existed. */
export async function deleteRuns(manager: EntityManager, runIds: string[]): Promise<string[]> {
  const { rows } = await runStatement<{ run_id: string }>(manager, `DELETE FROM runs WHERE run_id = ANY($1::uuid[]) RETURNING run_id`, [runIds]);
  return rows.map((row) => row.run_id);
}
