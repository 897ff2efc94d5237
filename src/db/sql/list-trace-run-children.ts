import type { EntityManager } from "typeorm";
import type { TraceRun } from "../../domain/trace-run.js";
import { TRACE_RUN_SELECT, traceRunFromRow, type TraceRunRow } from "./trace-run-columns.js";
import { runStatement } from "../run-statement.js";

/** The direct children of the given runs, in execution order. One query for all parents. Reads only. */
export async function listTraceRunChildren(manager: EntityManager, parentIds: readonly string[]): Promise<TraceRun[]> {
  if (parentIds.length === 0) return [];
  const { rows } = await runStatement<TraceRunRow>(
    manager,
    `SELECT ${TRACE_RUN_SELECT} FROM trace_runs WHERE parent_run_id = ANY($1::uuid[])
     ORDER BY parent_run_id, dotted_order, start_time, id`,
    [parentIds],
  );
  return rows.map(traceRunFromRow);
}
