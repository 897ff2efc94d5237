import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";
import type { TraceRunRow } from "./trace-run-columns.js";
import type { TraceRunCosts } from "./update-trace-run-costs.js";

type RepriceRow = Pick<
  TraceRunRow,
  | "id"
  | "start_time"
  | "model_name"
  | "provider"
  | "service_tier"
  | "prompt_tokens"
  | "completion_tokens"
  | "total_tokens"
  | "prompt_token_details"
  | "completion_token_details"
  | "prompt_cost"
  | "completion_cost"
  | "total_cost"
  | "prompt_cost_details"
  | "completion_cost_details"
  | "cost_source"
  | "price_id"
  | "price_tier"
>;

export interface RepriceCandidate {
  id: string;
  startTime: string;
  modelName: string | null;
  provider: string | null;
  serviceTier: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  totalTokens: number | null;
  promptTokenDetails: Record<string, number> | null;
  completionTokenDetails: Record<string, number> | null;
  /** The costs stored now, to count what a re-price changes. */
  current: TraceRunCosts;
}

export interface RepriceScope {
  from: string;
  to: string;
  /** Only runs of this model name (case-insensitive); null: every model. */
  model: string | null;
}

/**
 * The next page of LLM runs in [from, to) whose costs come from token counts (explicit costs are
 * never repriced), after the keyset position, row-locked for the caller's transaction. SKIP
 * LOCKED: a run locked right now is being ingested, and ingestion prices it with the current
 * table anyway; waiting could deadlock because ingestion locks in id order and this in time order.
 */
export async function lockTraceRunsToReprice(
  manager: EntityManager,
  scope: RepriceScope,
  after: { startTime: string; id: string } | null,
  limit: number,
): Promise<RepriceCandidate[]> {
  const { rows } = await runStatement<RepriceRow>(
    manager,
    `SELECT id, to_char(start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS start_time,
            model_name, provider, service_tier, prompt_tokens, completion_tokens, total_tokens,
            prompt_token_details, completion_token_details, prompt_cost::text AS prompt_cost,
            completion_cost::text AS completion_cost, total_cost::text AS total_cost, prompt_cost_details,
            completion_cost_details, cost_source, price_id, price_tier
     FROM trace_runs
     WHERE start_time >= $1::timestamptz AND start_time < $2::timestamptz
       AND run_type = 'llm'
       AND cost_source <> 'explicit'
       AND (prompt_tokens IS NOT NULL OR completion_tokens IS NOT NULL OR total_tokens IS NOT NULL)
       AND ($6::text IS NULL OR lower(model_name) = lower($6::text))
       AND (start_time, id) > ($3::timestamptz, $4::uuid)
     ORDER BY start_time, id
     LIMIT $5
     FOR UPDATE SKIP LOCKED`,
    [
      scope.from,
      scope.to,
      after?.startTime ?? "-infinity",
      after?.id ?? "00000000-0000-0000-0000-000000000000",
      limit,
      scope.model,
    ],
  );
  return rows.map((row) => ({
    id: row.id,
    startTime: row.start_time,
    modelName: row.model_name,
    provider: row.provider,
    serviceTier: row.service_tier,
    promptTokens: row.prompt_tokens,
    completionTokens: row.completion_tokens,
    totalTokens: row.total_tokens,
    promptTokenDetails: row.prompt_token_details,
    completionTokenDetails: row.completion_token_details,
    current: {
      id: row.id,
      promptCost: row.prompt_cost,
      completionCost: row.completion_cost,
      totalCost: row.total_cost,
      promptCostDetails: row.prompt_cost_details,
      completionCostDetails: row.completion_cost_details,
      costSource: row.cost_source,
      priceId: row.price_id,
      priceTier: row.price_tier,
    },
  }));
}
