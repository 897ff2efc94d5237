import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/** The highest version an assistant has (null: none). Reads only: the caller locks the assistant first. */
export async function latestAssistantVersion(manager: EntityManager, assistantId: string): Promise<number | null> {
  const { rows } = await runStatement<{ max: number | null }>(
    manager,
    "SELECT max(version)::int AS max FROM assistant_versions WHERE assistant_id = $1",
    [assistantId],
  );
  return rows[0]!.max;
}
