import type { EntityManager } from "typeorm";

/** Deletes one price row; false when it did not exist. Runs priced with it keep their costs. */
export async function deleteModelPrice(manager: EntityManager, id: string): Promise<boolean> {
  const result = await manager.query(`DELETE FROM model_prices WHERE id = $1`, [id]);
  // TypeORM answers a DELETE with [rows, affectedCount].
  return Number(result[1]) > 0;
}
