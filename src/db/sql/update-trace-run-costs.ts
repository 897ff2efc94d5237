import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

export interface TraceRunCosts {
  id: string;
  promptCost: string | null;
  completionCost: string | null;
  totalCost: string | null;
  promptCostDetails: Record<string, string> | null;
  completionCostDetails: Record<string, string> | null;
  costSource: "explicit" | "price-table" | "none";
  priceId: string | null;
  priceTier: string | null;
}

/** Overwrites the cost columns of many runs in one statement (the caller holds their row locks). */
export async function updateTraceRunCosts(manager: EntityManager, costs: readonly TraceRunCosts[], now: Date) {
  if (costs.length === 0) return;
  const payload = costs.map((cost) => ({
    id: cost.id,
    prompt_cost: cost.promptCost,
    completion_cost: cost.completionCost,
    total_cost: cost.totalCost,
    prompt_cost_details: cost.promptCostDetails,
    completion_cost_details: cost.completionCostDetails,
    cost_source: cost.costSource,
    price_id: cost.priceId,
    price_tier: cost.priceTier,
  }));
  await runStatement(
    manager,
    `UPDATE trace_runs AS t SET prompt_cost = r.prompt_cost, completion_cost = r.completion_cost,
       total_cost = r.total_cost, prompt_cost_details = r.prompt_cost_details,
       completion_cost_details = r.completion_cost_details, cost_source = r.cost_source,
       price_id = r.price_id, price_tier = r.price_tier, updated_at = $2::timestamptz
     FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, prompt_cost numeric, completion_cost numeric,
       total_cost numeric, prompt_cost_details jsonb, completion_cost_details jsonb, cost_source text, price_id uuid, price_tier text)
     WHERE t.id = r.id`,
    [JSON.stringify(payload), now],
  );
}
