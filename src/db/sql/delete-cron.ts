import type { EntityManager } from "typeorm";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";

const DELETE_CRON = preparedStatement("delete_cron", `DELETE FROM crons WHERE cron_id = $1 AND metadata @> CAST($2 AS jsonb)`);

/** Deletes a cron within `scope` (its firings go by foreign key); false when it is missing or outside the scope. */
export async function deleteCron(manager: EntityManager, cronId: string, scope: Record<string, unknown>): Promise<boolean> {
  const { affected } = await runStatement(manager, DELETE_CRON, [cronId, JSON.stringify(scope)]);
  return affected > 0;
}
