import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/** Deletes runs (their stored events cascade). Returns the ids that existed. */
export async function deleteRuns(manager: EntityManager, runIds: string[]): Promise<string[]> {
  const result = await runStatement(manager, `DELETE FROM runs WHERE run_id = ANY($1::uuid[]) RETURNING run_id`, [runIds]);
  return (result.rows as Array<{ run_id: string }>).map((row) => row.run_id);
}
