import type { EntityManager } from "typeorm";
import type { UsageTotals } from "../../domain/trace-run.js";
import { runStatement } from "../run-statement.js";

// What totals can be keyed by. Identifiers come only from this constant, never from input.
const KEY_COLUMNS = { trace: "trace_id", hangarRun: "hangar_run_id" } as const;
export type UsageTotalsKey = keyof typeof KEY_COLUMNS;

// Tokens are summed as bigint (a busy trace can pass 2^31) and costs as exact numeric text.
// trim_scale: a numeric sum takes the largest scale of its terms (0.00015 + 0.00015 = 0.00030);
// costs leave as canonical decimals without trailing zeros, like computeCost writes them.
export const USAGE_SUMS = `count(*)::int AS run_count,
  coalesce(array_agg(DISTINCT model_name ORDER BY model_name) FILTER (WHERE model_name IS NOT NULL), '{}') AS model_names,
  coalesce(sum(prompt_tokens), 0)::bigint AS prompt_tokens,
  coalesce(sum(completion_tokens), 0)::bigint AS completion_tokens,
  coalesce(sum(total_tokens), 0)::bigint AS total_tokens,
  trim_scale(coalesce(sum(prompt_cost), 0))::text AS prompt_cost,
  trim_scale(coalesce(sum(completion_cost), 0))::text AS completion_cost,
  trim_scale(coalesce(sum(total_cost), 0))::text AS total_cost`;

/**
 * Token and cost sums over every run of each given trace (or each Hangar run), one query for all
 * keys. Keys without runs are absent from the map. Reads only.
 */
export async function sumTraceUsage(
  manager: EntityManager,
  by: UsageTotalsKey,
  keys: readonly string[],
): Promise<Map<string, UsageTotals>> {
  if (keys.length === 0) return new Map();
  const column = KEY_COLUMNS[by];
  const { rows } = await runStatement<UsageSumsRow & { key: string }>(
    manager,
    `SELECT ${column} AS key, ${USAGE_SUMS} FROM trace_runs WHERE ${column} = ANY($1::uuid[]) GROUP BY ${column}`,
    [keys],
  );
  return new Map(rows.map((row) => [row.key, usageTotalsFromRow(row)]));
}

/** The USAGE_SUMS columns as pg reads them: bigint sums and numeric costs arrive as text. */
export interface UsageSumsRow {
  run_count: number;
  model_names: string[];
  prompt_tokens: string;
  completion_tokens: string;
  total_tokens: string;
  prompt_cost: string;
  completion_cost: string;
  total_cost: string;
}

export function usageTotalsFromRow(row: UsageSumsRow): UsageTotals {
  return {
    runCount: Number(row.run_count),
    modelNames: row.model_names,
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    totalTokens: Number(row.total_tokens),
    promptCost: row.prompt_cost,
    completionCost: row.completion_cost,
    totalCost: row.total_cost,
  };
}
