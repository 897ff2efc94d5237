import { USAGE_SUMS, usageTotalsFromRow } from "../db/sql/sum-trace-usage.js";
import { InvalidInputError } from "../domain/errors.js";
import { isUuid } from "../domain/ids.js";
import type { JsonObject } from "../domain/json.js";
import { parseRunTime } from "../tracing/ingest/parse-run-time.js";
import type { ServiceContext } from "./service-context.js";
import type { RunTimeInput, UsageGrouping, UsageTotals } from "./traces/trace-run.js";

/**
 * Trace-store reads the GraphQL console needs beyond tracesService: a COUNT for connections'
 * totalCount and usage sums grouped by several keys at once (tracesService.summarizeUsage groups
 * by one).
 *
 * TODO(trace store): the two statements belong in db/sql (count-trace-runs.ts sharing
 * query-trace-runs.ts's conditions, summarize-trace-usage-by.ts); they live here only while that
 * layer is being finished by someone else. Keep TRACE_FILTER_CONDITIONS in step with
 * traceRunConditions there.
 */

/** The filters the GraphQL `traces` query offers; every given field must hold. */
export interface TraceRunCountFilter {
  traceId?: string;
  isRoot?: boolean;
  runTypes?: string[];
  modelName?: string;
  provider?: string;
  hasError?: boolean;
  hangarRunId?: string;
  threadId?: string;
  assistantId?: string;
  /** Inclusive. */
  startTimeFrom?: RunTimeInput;
  /** Exclusive. */
  startTimeTo?: RunTimeInput;
  /** extra.metadata must contain this object. */
  metadata?: JsonObject;
}

export interface SummarizeUsageByInput {
  from: RunTimeInput;
  to: RunTimeInput;
  /** Zero or more keys; none gives one row of totals over the range. */
  groupBy: readonly UsageGrouping[];
  runTypes?: string[];
}

/** Sums of one group; keys not grouped by are null, as are keys the group's runs lack. */
export interface UsageBreakdownRow extends UsageTotals {
  model: string | null;
  provider: string | null;
  assistantId: string | null;
  /** UTC day, YYYY-MM-DD. */
  day: string | null;
}

// Group expressions and their output names; identifiers come only from this constant.
const GROUP_COLUMNS: Record<UsageGrouping, { expression: string; alias: keyof UsageBreakdownRow }> = {
  model: { expression: "model_name", alias: "model" },
  provider: { expression: "provider", alias: "provider" },
  assistant: { expression: "assistant_id::text", alias: "assistantId" },
  day: { expression: "to_char(start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD')", alias: "day" },
};
const GROUP_ORDER: readonly UsageGrouping[] = ["day", "model", "provider", "assistant"];

export const traceQueriesService = {
  /** How many runs match a filter (the same conditions tracesService.query applies). */
  async count(ctx: ServiceContext, filter: TraceRunCountFilter): Promise<number> {
    for (const [field, id] of Object.entries({
      trace_id: filter.traceId,
      hangar_run_id: filter.hangarRunId,
      thread_id: filter.threadId,
      assistant_id: filter.assistantId,
    })) {
      if (id !== undefined && !isUuid(id)) throw new InvalidInputError(`${field} must be UUIDs, got '${id}'`);
    }
    const params: unknown[] = [];
    const conditions: string[] = [];
    const add = (sql: (ref: string) => string, value: unknown) => {
      params.push(value);
      conditions.push(sql(`$${params.length}`));
    };
    if (filter.traceId) add((ref) => `trace_id = ${ref}::uuid`, filter.traceId.toLowerCase());
    if (filter.isRoot !== undefined) conditions.push(filter.isRoot ? "parent_run_id IS NULL" : "parent_run_id IS NOT NULL");
    if (filter.runTypes) add((ref) => `run_type = ANY(${ref}::text[])`, filter.runTypes);
    if (filter.modelName) add((ref) => `model_name = ${ref}`, filter.modelName);
    if (filter.provider) add((ref) => `provider = ${ref}`, filter.provider);
    if (filter.hasError !== undefined) conditions.push(filter.hasError ? "error IS NOT NULL" : "error IS NULL");
    if (filter.hangarRunId) add((ref) => `hangar_run_id = ${ref}::uuid`, filter.hangarRunId.toLowerCase());
    if (filter.threadId) add((ref) => `thread_id = ${ref}::uuid`, filter.threadId.toLowerCase());
    if (filter.assistantId) add((ref) => `assistant_id = ${ref}::uuid`, filter.assistantId.toLowerCase());
    const from = optionalTime(filter.startTimeFrom, "start_time");
    const to = optionalTime(filter.startTimeTo, "end_time");
    if (from) add((ref) => `start_time >= ${ref}::timestamptz`, from);
    if (to) add((ref) => `start_time < ${ref}::timestamptz`, to);
    if (filter.metadata) add((ref) => `(extra -> 'metadata') @> ${ref}::jsonb`, JSON.stringify(filter.metadata));
    const [row] = await ctx.db.dataSource.manager.query(
      `SELECT count(*)::bigint AS count FROM trace_runs ${conditions.length ? `WHERE ${conditions.join(" AND ")}` : ""}`,
      params,
    );
    return Number(row.count);
  },

  /**
   * Token and cost sums over runs that started in [from, to), one row per combination of the
   * grouping keys that occurs: by day, then model, provider and assistant, nulls last.
   */
  async summarizeUsage(ctx: ServiceContext, input: SummarizeUsageByInput): Promise<UsageBreakdownRow[]> {
    const from = optionalTime(input.from, "from");
    const to = optionalTime(input.to, "to");
    if (!from || !to || from >= to) throw new InvalidInputError("from and to must be times with from earlier than to");
    const groups = GROUP_ORDER.filter((group) => input.groupBy.includes(group));
    const params: unknown[] = [from, to];
    let runTypeCondition = "";
    if (input.runTypes) {
      params.push(input.runTypes);
      runTypeCondition = "AND run_type = ANY($3::text[])";
    }
    const keys = (Object.keys(GROUP_COLUMNS) as UsageGrouping[]).map((group) => {
      const { expression, alias } = GROUP_COLUMNS[group];
      return `${groups.includes(group) ? expression : "NULL::text"} AS "${alias}"`;
    });
    const positions = groups.map((group) => (Object.keys(GROUP_COLUMNS) as UsageGrouping[]).indexOf(group) + 1);
    const rows: Record<string, string | null>[] = await ctx.db.dataSource.manager.query(
      `SELECT ${keys.join(", ")}, ${USAGE_SUMS} FROM trace_runs
       WHERE start_time >= $1::timestamptz AND start_time < $2::timestamptz ${runTypeCondition}
       ${positions.length ? `GROUP BY ${positions.join(", ")} ORDER BY ${positions.map((n) => `${n} NULLS LAST`).join(", ")}` : ""}`,
      params,
    );
    // Without grouping keys an empty range still yields its one (zero) row, like an aggregate does.
    return rows.map((row) => ({
      model: row.model ?? null,
      provider: row.provider ?? null,
      assistantId: row.assistantId ?? null,
      day: row.day ?? null,
      ...usageTotalsFromRow(row),
    }));
  },
};

function optionalTime(value: RunTimeInput | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const time = parseRunTime(value);
  if (time === undefined) throw new InvalidInputError(`${field} must be an ISO 8601 time or epoch milliseconds`);
  return time;
}
