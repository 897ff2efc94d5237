import type { EntityManager } from "typeorm";
import type { UsageGrouping, UsageSummaryRow } from "../../domain/trace-run.js";
import { USAGE_SUMS, usageTotalsFromRow } from "./sum-trace-usage.js";

// Group expressions and their output names; identifiers and expressions come only from here.
const GROUP_COLUMNS: Record<UsageGrouping, { expression: string; alias: "model" | "provider" | "assistantId" | "day" }> = {
  model: { expression: "model_name", alias: "model" },
  provider: { expression: "provider", alias: "provider" },
  assistant: { expression: "assistant_id::text", alias: "assistantId" },
  day: { expression: "to_char(start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD')", alias: "day" },
};
const GROUPINGS = Object.keys(GROUP_COLUMNS) as UsageGrouping[];
const GROUP_ORDER: readonly UsageGrouping[] = ["day", "model", "provider", "assistant"];

/**
 * Token and cost sums over runs that started in [from, to), one row per combination of the
 * grouping keys that occurs, ordered by day, model, provider, assistant with nulls last. No keys:
 * one row of totals (an aggregate yields its row even over an empty range). Reads only.
 */
export async function summarizeTraceUsage(
  manager: EntityManager,
  groupBy: readonly UsageGrouping[],
  range: { from: string; to: string; runTypes?: string[] },
): Promise<UsageSummaryRow[]> {
  const groups = GROUP_ORDER.filter((group) => groupBy.includes(group));
  const params: unknown[] = [range.from, range.to];
  let runTypeCondition = "";
  if (range.runTypes) {
    params.push(range.runTypes);
    runTypeCondition = "AND run_type = ANY($3::text[])";
  }
  const keys = GROUPINGS.map((group) => {
    const { expression, alias } = GROUP_COLUMNS[group];
    return `${groups.includes(group) ? expression : "NULL::text"} AS "${alias}"`;
  });
  const positions = groups.map((group) => GROUPINGS.indexOf(group) + 1);
  const rows: Record<string, string | null>[] = await manager.query(
    `SELECT ${keys.join(", ")}, ${USAGE_SUMS} FROM trace_runs
     WHERE start_time >= $1::timestamptz AND start_time < $2::timestamptz ${runTypeCondition}
     ${positions.length ? `GROUP BY ${positions.join(", ")} ORDER BY ${positions.map((n) => `${n} NULLS LAST`).join(", ")}` : ""}`,
    params,
  );
  return rows.map((row) => ({
    model: row.model ?? null,
    provider: row.provider ?? null,
    assistantId: row.assistantId ?? null,
    day: row.day ?? null,
    ...usageTotalsFromRow(row as Record<string, string>),
  }));
}
