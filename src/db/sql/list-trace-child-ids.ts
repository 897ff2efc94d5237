import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/**
 * The ids of the direct children of each given run, in execution order (dotted_order, which
 * sorts by start time at microsecond precision). One query for all parents. Reads only.
 */
export async function listTraceChildIds(
  manager: EntityManager,
  parentIds: readonly string[],
): Promise<Map<string, string[]>> {
  const byParent = new Map<string, string[]>(parentIds.map((id) => [id, []]));
  if (parentIds.length === 0) return byParent;
  const { rows } = await runStatement<{ parent_run_id: string; id: string }>(
    manager,
    `SELECT parent_run_id, id FROM trace_runs WHERE parent_run_id = ANY($1::uuid[])
     ORDER BY parent_run_id, dotted_order, start_time, id`,
    [parentIds],
  );
  for (const row of rows) byParent.get(row.parent_run_id)?.push(row.id);
  return byParent;
}
