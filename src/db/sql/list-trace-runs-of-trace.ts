import type { EntityManager } from "typeorm";
import type { TraceRun } from "../../domain/trace-run.js";
import { TRACE_RUN_SELECT, traceRunFromRow, type TraceRunRow } from "./trace-run-columns.js";
import { runStatement } from "../run-statement.js";

/**
 * Every run of one trace in dotted_order: depth-first, siblings by start time. Runs without a
 * dotted_order (clients that send none) follow, by start time. Reads only.
 */
export async function listTraceRunsOfTrace(manager: EntityManager, traceId: string): Promise<TraceRun[]> {
  const { rows } = await runStatement<TraceRunRow>(
    manager,
    `SELECT ${TRACE_RUN_SELECT} FROM trace_runs WHERE trace_id = $1::uuid
     ORDER BY dotted_order NULLS LAST, start_time, id`,
    [traceId],
  );
  return rows.map(traceRunFromRow);
}
