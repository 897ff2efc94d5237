import type { EntityManager } from "typeorm";
import type { TraceUsage } from "../../domain/trace-run.js";
import { USAGE_SUMS, usageTotalsFromRow, type UsageSumsRow } from "./sum-trace-usage.js";
import { runStatement } from "../run-statement.js";

/**
 * The traces whose root run started in [from, to), most expensive first (sum of every run's
 * cost; ties by tokens, then trace id), at most `limit`. Roots in the range come from
 * trace_runs_root_start_time_idx, each one's runs from trace_runs_trace_id_idx (LATERAL: a join
 * let the planner pick a sequential scan of every run, 130 ms over 120k runs for a week of 700
 * traces, growing with the table; per root it grows with the range only); sums are SQL aggregates. A trace with several roots (runs whose parent never arrived) names the
 * lowest id. A trace counts whole, even where its later runs start after `to`:
 * the range selects traces, not runs. Reads only.
 */
export async function rankExpensiveTraces(
  manager: EntityManager,
  range: { from: string; to: string; limit: number },
): Promise<TraceUsage[]> {
  const { rows } = await runStatement<UsageSumsRow & { trace_id: string; root_run_id: string }>(
    manager,
    `WITH roots AS (
       SELECT trace_id, min(id::text) AS root_run_id FROM trace_runs
       WHERE parent_run_id IS NULL AND start_time >= $1::timestamptz AND start_time < $2::timestamptz
         AND trace_id IS NOT NULL
       GROUP BY trace_id
     )
     SELECT roots.trace_id::text AS trace_id, roots.root_run_id, sums.*
     FROM roots CROSS JOIN LATERAL (SELECT ${USAGE_SUMS} FROM trace_runs WHERE trace_runs.trace_id = roots.trace_id) sums
     ORDER BY sums.total_cost::numeric DESC, sums.total_tokens DESC, roots.trace_id
     LIMIT $3`,
    [range.from, range.to, range.limit],
  );
  return rows.map((row) => ({ traceId: row.trace_id, rootRunId: row.root_run_id, totals: usageTotalsFromRow(row) }));
}
