import type { EntityManager } from "typeorm";
import type { UsageGrouping, UsageSummaryRow } from "../../services/traces/trace-run.js";
import { USAGE_SUMS, usageTotalsFromRow } from "./sum-trace-usage.js";

// Group expressions by name; identifiers and expressions come only from this constant.
const GROUP_EXPRESSIONS: Record<UsageGrouping, string> = {
  model: "model_name",
  provider: "provider",
  assistant: "assistant_id::text",
  day: "to_char(start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
};

/**
 * Token and cost sums per model, provider, assistant or UTC day over runs that started in
 * [from, to). Groups sorted by key, the null group (runs without one) last. Reads only.
 */
export async function summarizeTraceUsage(
  manager: EntityManager,
  groupBy: UsageGrouping,
  range: { from: string; to: string; runTypes?: string[] },
): Promise<UsageSummaryRow[]> {
  const expression = GROUP_EXPRESSIONS[groupBy];
  const params: unknown[] = [range.from, range.to];
  let runTypeCondition = "";
  if (range.runTypes) {
    params.push(range.runTypes);
    runTypeCondition = `AND run_type = ANY($3::text[])`;
  }
  const rows = await manager.query(
    `SELECT ${expression} AS key, ${USAGE_SUMS} FROM trace_runs
     WHERE start_time >= $1::timestamptz AND start_time < $2::timestamptz ${runTypeCondition}
     GROUP BY 1 ORDER BY 1 NULLS LAST`,
    params,
  );
  return rows.map((row: Record<string, string>) => ({ key: row.key, ...usageTotalsFromRow(row) }));
}
