import type { EntityManager } from "typeorm";
import type { TraceRun } from "../../domain/trace-run.js";
import { TRACE_RUN_SELECT, traceRunFromRow, type TraceRunRow } from "./trace-run-columns.js";
import { runStatement } from "../run-statement.js";

/** Runs by id (any order; misses are absent). Reads only. */
export async function getTraceRuns(manager: EntityManager, ids: readonly string[]): Promise<TraceRun[]> {
  if (ids.length === 0) return [];
  const { rows } = await runStatement<TraceRunRow>(manager, `SELECT ${TRACE_RUN_SELECT} FROM trace_runs WHERE id = ANY($1::uuid[])`, [ids]);
  return rows.map(traceRunFromRow);
}
