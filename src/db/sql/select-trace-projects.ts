import type { EntityManager } from "typeorm";
import type { TraceProject } from "../../domain/trace-run.js";
import { runStatement } from "../run-statement.js";

/**
 * The tracing projects (LangSmith sessions) runs were recorded into, found by name or by id: one
 * row per project id, with the span of its runs' start times. Reads only; scans the runs of the
 * project (there is no projects table: a project exists while it has runs).
 */
export async function selectTraceProjects(
  manager: EntityManager,
  filter: { name?: string; id?: string; limit: number; offset: number },
): Promise<TraceProject[]> {
  const params: unknown[] = [];
  const where = ["session_id IS NOT NULL"];
  if (filter.name !== undefined) where.push(`session_name = $${params.push(filter.name)}`);
  if (filter.id !== undefined) where.push(`session_id = $${params.push(filter.id)}`);
  const { rows } = await runStatement<{ id: string; name: string | null; start_time: Date; last_start_time: Date; run_count: string }>(
    manager,
    `SELECT session_id AS id, max(session_name) AS name, min(start_time) AS start_time,
            max(start_time) AS last_start_time, count(*)::bigint AS run_count
     FROM trace_runs WHERE ${where.join(" AND ")}
     GROUP BY session_id ORDER BY min(start_time) DESC, session_id
     LIMIT $${params.push(filter.limit)} OFFSET $${params.push(filter.offset)}`,
    params,
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    startTime: row.start_time,
    lastRunStartTime: row.last_start_time,
    runCount: Number(row.run_count),
  }));
}
