import type { EntityManager } from "typeorm";
import { traceRunConditions, type TraceRunFilter } from "./query-trace-runs.js";
import { runStatement } from "../run-statement.js";

/** How many runs match a filter: the same conditions queryTraceRuns pages through. Reads only. */
export async function countTraceRuns(manager: EntityManager, filter: TraceRunFilter): Promise<number> {
  const params: unknown[] = [];
  const where = traceRunConditions(filter, params);
  const { rows: [row] } = await runStatement<{ count: string }>(
    manager,
    `SELECT count(*)::bigint AS count FROM trace_runs ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`,
    params,
  );
  return Number(row!.count);
}
