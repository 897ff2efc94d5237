import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/** Retention: drops stored events older than the cutoff (replay only serves recent streams). */
export async function deleteOldRunEvents(manager: EntityManager, before: Date): Promise<number> {
  const result = await runStatement(manager, `DELETE FROM run_events WHERE created_at < $1`, [before]);
  return result.affected;
}
