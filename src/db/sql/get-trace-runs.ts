import type { EntityManager } from "typeorm";
import type { TraceRun } from "../../domain/trace-run.js";
import { TRACE_RUN_SELECT, traceRunFromRow } from "./trace-run-columns.js";

/** Runs by id (any order; misses are absent). Reads only. */
export async function getTraceRuns(manager: EntityManager, ids: readonly string[]): Promise<TraceRun[]> {
  if (ids.length === 0) return [];
  const rows = await manager.query(`SELECT ${TRACE_RUN_SELECT} FROM trace_runs WHERE id = ANY($1::uuid[])`, [ids]);
  return rows.map(traceRunFromRow);
}
