import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/** Deletes one price row; false when it did not exist. Runs priced with it keep their costs. */
export async function deleteModelPrice(manager: EntityManager, id: string): Promise<boolean> {
  const { affected } = await runStatement(manager, `DELETE FROM model_prices WHERE id = $1`, [id]);
  return affected > 0;
}
