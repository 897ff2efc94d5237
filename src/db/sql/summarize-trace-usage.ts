import type { EntityManager } from "typeorm";
import type { UsageGrouping, UsageOrder, UsageSummaryRow } from "../../domain/trace-run.js";
import { USAGE_SUMS, usageTotalsFromRow, type UsageSumsRow } from "./sum-trace-usage.js";
import { runStatement } from "../run-statement.js";

type GroupAlias = "model" | "provider" | "assistantId" | "day" | "thread" | "metadataValue";

// LangSmith groups traces into a thread by any of these metadata keys (its docs name all three);
// Hangar's own tracer and OTLP's gen_ai.conversation.id both write thread_id.
const threadKeyOf = (alias: string) =>
  `coalesce(${alias}.extra->'metadata'->>'thread_id', ${alias}.extra->'metadata'->>'session_id', ${alias}.extra->'metadata'->>'conversation_id')`;

// A run without its own key counts under its trace root's thread. LangChain and the langsmith SDK
// copy a parent's metadata onto its children, but OpenTelemetry instrumentations put
// gen_ai.conversation.id on the agent span only, not on the LLM spans under it that carry the cost.
// coalesce evaluates its second argument only for runs lacking the key, and each such lookup is
// one probe of trace_runs_trace_id_idx (the root is the trace's run without a parent).
const THREAD_KEY = `coalesce(${threadKeyOf("r")}, (
  SELECT ${threadKeyOf("root")} FROM trace_runs root
  WHERE root.trace_id = r.trace_id AND root.parent_run_id IS NULL
  ORDER BY root.start_time, root.id LIMIT 1))`;

// Group expressions and their output names; identifiers and expressions come only from here. The
// metadata key is a parameter (its placeholder is passed in), never spliced into the text.
const GROUP_COLUMNS: Record<UsageGrouping, { expression: string | ((keyParam: string) => string); alias: GroupAlias }> = {
  model: { expression: "model_name", alias: "model" },
  provider: { expression: "provider", alias: "provider" },
  assistant: { expression: "assistant_id::text", alias: "assistantId" },
  day: { expression: "to_char(start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD')", alias: "day" },
  thread: { expression: THREAD_KEY, alias: "thread" },
  metadata: { expression: (keyParam) => `extra->'metadata'->>${keyParam}::text`, alias: "metadataValue" },
};
const GROUPINGS = Object.keys(GROUP_COLUMNS) as UsageGrouping[];
const GROUP_ORDER: readonly UsageGrouping[] = ["day", "model", "provider", "assistant", "thread", "metadata"];

export interface UsageRange {
  from: string;
  to: string;
  runTypes?: string[];
  /** The metadata key the `metadata` grouping reads. */
  metadataKey?: string;
  order: UsageOrder;
  limit: number;
}

/**
 * Token and cost sums over runs that started in [from, to), one row per combination of the
 * grouping keys that occurs (at most `limit`), ordered by day, model, provider, assistant, thread,
 * metadata value with nulls last, or most expensive first (ties by tokens, then by keys). No keys:
 * one row of totals (an aggregate yields its row even over an empty range). Reads only; the range
 * is read through trace_runs_start_time_idx and aggregated in PostgreSQL.
 */
export async function summarizeTraceUsage(
  manager: EntityManager,
  groupBy: readonly UsageGrouping[],
  range: UsageRange,
): Promise<UsageSummaryRow[]> {
  const groups = GROUP_ORDER.filter((group) => groupBy.includes(group));
  const params: unknown[] = [range.from, range.to, range.limit];
  let runTypeCondition = "";
  if (range.runTypes) {
    params.push(range.runTypes);
    runTypeCondition = `AND run_type = ANY($${params.length}::text[])`;
  }
  // Only a referenced parameter may be sent (PostgreSQL cannot type an unused one).
  const keyParam = groups.includes("metadata") ? `$${params.push(range.metadataKey ?? "")}` : "NULL";
  const keys = GROUPINGS.map((group) => {
    const { expression, alias } = GROUP_COLUMNS[group];
    const sql = typeof expression === "string" ? expression : expression(keyParam);
    return `${groups.includes(group) ? sql : "NULL::text"} AS "${alias}"`;
  });
  const positions = groups.map((group) => GROUPINGS.indexOf(group) + 1);
  const byKeys = positions.map((n) => `${n} NULLS LAST`);
  const order =
    range.order === "cost" ? ["coalesce(sum(total_cost), 0) DESC", "coalesce(sum(total_tokens), 0) DESC", ...byKeys] : byKeys;
  const { rows } = await runStatement<UsageSumsRow & Record<GroupAlias, string | null>>(
    manager,
    `SELECT ${keys.join(", ")}, ${USAGE_SUMS} FROM trace_runs r
     WHERE start_time >= $1::timestamptz AND start_time < $2::timestamptz ${runTypeCondition}
     ${positions.length ? `GROUP BY ${positions.join(", ")}` : ""}
     ${order.length ? `ORDER BY ${order.join(", ")}` : ""}
     LIMIT $3`,
    params,
  );
  return rows.map((row) => ({
    model: row.model,
    provider: row.provider,
    assistantId: row.assistantId,
    day: row.day,
    thread: row.thread,
    metadataValue: row.metadataValue,
    ...usageTotalsFromRow(row),
  }));
}
