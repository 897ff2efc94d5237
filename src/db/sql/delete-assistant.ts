import type { EntityManager } from "typeorm";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";

const DELETE_ASSISTANT = preparedStatement(
  "delete_assistant",
  `DELETE FROM assistants WHERE assistant_id = $1 AND metadata @> CAST($2 AS jsonb)`,
);

/**
 * Deletes an assistant within `scope` (its versions, runs and crons go by foreign key); false
 * when it is missing or outside the scope.
 */
export async function deleteAssistant(manager: EntityManager, assistantId: string, scope: Record<string, unknown>): Promise<boolean> {
  const { affected } = await runStatement(manager, DELETE_ASSISTANT, [assistantId, JSON.stringify(scope)]);
  return affected > 0;
}
