import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/** Whether the thread exists and its metadata contains `scope` (the caller's authorization; `{}` for anyone). */
export async function threadExists(manager: EntityManager, threadId: string, scope: Record<string, unknown> = {}): Promise<boolean> {
  const { rows } = await runStatement<unknown>(
    manager,
    `SELECT 1 FROM threads WHERE thread_id = $1 AND metadata @> CAST($2 AS jsonb)`,
    [threadId, JSON.stringify(scope)],
  );
  return rows.length > 0;
}

/** Whether a thread is missing, or exists within `scope` ("visible") or outside it ("hidden"). */
export async function threadVisibility(
  manager: EntityManager,
  threadId: string,
  scope: Record<string, unknown>,
): Promise<"missing" | "visible" | "hidden"> {
  const { rows } = await runStatement<{ visible: boolean }>(
    manager,
    `SELECT metadata @> CAST($2 AS jsonb) AS visible FROM threads WHERE thread_id = $1`,
    [threadId, JSON.stringify(scope)],
  );
  if (rows.length === 0) return "missing";
  return rows[0]!.visible ? "visible" : "hidden";
}
