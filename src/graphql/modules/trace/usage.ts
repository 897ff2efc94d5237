import type { TraceRun, UsageTotals } from "../../../domain/trace-run.js";
import { builder } from "../../builder.js";

/**
 * Token usage and cost, as one run reports them and as sums (a trace, a Hangar run). Costs are
 * exact decimal strings of USD ("0.00045"), never floats.
 */

type CostSourceValue = TraceRun["costSource"];

export interface TokenUsageShape {
  inputTokens: number | null;
  outputTokens: number | null;
  totalTokens: number | null;
  inputTokenDetails: Record<string, number> | null;
  outputTokenDetails: Record<string, number> | null;
  /** null on sums. */
  estimated: boolean | null;
}

export interface CostShape {
  promptCost: string | null;
  completionCost: string | null;
  totalCost: string | null;
  promptCostDetails: Record<string, string> | null;
  completionCostDetails: Record<string, string> | null;
  /** null on sums. */
  source: CostSourceValue | null;
  priceId: string | null;
  priceTier: string | null;
  serviceTier: string | null;
}

export const TokenUsageRef = builder.objectRef<TokenUsageShape>("TokenUsage");
export const CostRef = builder.objectRef<CostShape>("Cost");
export const UsageTotalsRef = builder.objectRef<UsageTotals>("UsageTotals");

const CostSource = builder.enumType("CostSource", {
  values: {
    EXPLICIT: { value: "explicit" as const, description: "The run reported its own costs." },
    PRICE_TABLE: { value: "price-table" as const, description: "Computed from the model price table." },
    NONE: { value: "none" as const, description: "Not priced: no usage, or no price for the model." },
  },
});

TokenUsageRef.implement({
  description: "Token counts (LangChain usage_metadata's names). On a sum, details are null.",
  fields: (t) => ({
    inputTokens: t.exposeInt("inputTokens", { nullable: true }),
    outputTokens: t.exposeInt("outputTokens", { nullable: true }),
    totalTokens: t.exposeInt("totalTokens", { nullable: true }),
    inputTokenDetails: t.expose("inputTokenDetails", {
      type: "JSON",
      nullable: true,
      description: "Input tokens by kind: {cache_read, cache_creation, audio, …}.",
    }),
    outputTokenDetails: t.expose("outputTokenDetails", {
      type: "JSON",
      nullable: true,
      description: "Output tokens by kind: {reasoning, audio, …}.",
    }),
    estimated: t.exposeBoolean("estimated", {
      nullable: true,
      description: "true when the run reported no counts and they were estimated with a tokenizer; null on sums.",
    }),
  }),
});

CostRef.implement({
  description: "Cost in USD as exact decimal strings (e.g. \"0.00045\"). On a sum, details, source and priceId are null.",
  fields: (t) => ({
    promptCost: t.exposeString("promptCost", { nullable: true, description: "Input tokens' cost." }),
    completionCost: t.exposeString("completionCost", { nullable: true, description: "Output tokens' cost." }),
    totalCost: t.exposeString("totalCost", { nullable: true }),
    promptCostDetails: t.expose("promptCostDetails", {
      type: "JSON",
      nullable: true,
      description: "Input cost by token kind, decimal strings.",
    }),
    completionCostDetails: t.expose("completionCostDetails", {
      type: "JSON",
      nullable: true,
      description: "Output cost by token kind, decimal strings.",
    }),
    source: t.expose("source", { type: CostSource, nullable: true }),
    priceId: t.exposeID("priceId", { nullable: true, description: "The model price row used (ModelPrice.modelPriceId)." }),
    priceTier: t.exposeString("priceTier", {
      nullable: true,
      description: "The name of the price row's tier that applied (ModelPrice.tiers); null: the row's own prices.",
    }),
    serviceTier: t.exposeString("serviceTier", {
      nullable: true,
      description: "The service tier the provider reported for the call (or it requested): flex, priority, batch …",
    }),
  }),
});

UsageTotalsRef.implement({
  description: "Token and cost sums over a set of trace runs.",
  fields: (t) => ({
    runCount: t.exposeInt("runCount", { description: "Runs summed (of every run type; only LLM runs carry usage)." }),
    modelNames: t.exposeStringList("modelNames", { description: "The distinct models of the runs summed (their LLM calls), A to Z." }),
    usage: t.field({ type: TokenUsageRef, resolve: usageOfTotals }),
    cost: t.field({ type: CostRef, resolve: costOfTotals }),
  }),
});

/** A run's own usage; null when it has no token counts (only LLM runs have them). */
export function usageOfRun(run: TraceRun): TokenUsageShape | null {
  if (run.promptTokens === null && run.completionTokens === null && run.totalTokens === null) return null;
  return {
    inputTokens: run.promptTokens,
    outputTokens: run.completionTokens,
    totalTokens: run.totalTokens,
    inputTokenDetails: run.promptTokenDetails,
    outputTokenDetails: run.completionTokenDetails,
    estimated: run.tokensEstimated,
  };
}

/** A run's own cost; null for runs that are never priced (no usage and no explicit cost). */
export function costOfRun(run: TraceRun): CostShape | null {
  if (run.totalCost === null && run.promptCost === null && usageOfRun(run) === null) return null;
  return {
    promptCost: run.promptCost,
    completionCost: run.completionCost,
    totalCost: run.totalCost,
    promptCostDetails: run.promptCostDetails,
    completionCostDetails: run.completionCostDetails,
    source: run.costSource,
    priceId: run.priceId,
    priceTier: run.priceTier,
    serviceTier: run.serviceTier,
  };
}

export function usageOfTotals(totals: UsageTotals): TokenUsageShape {
  return {
    inputTokens: totals.promptTokens,
    outputTokens: totals.completionTokens,
    totalTokens: totals.totalTokens,
    inputTokenDetails: null,
    outputTokenDetails: null,
    estimated: null,
  };
}

export function costOfTotals(totals: UsageTotals): CostShape {
  return {
    promptCost: totals.promptCost,
    completionCost: totals.completionCost,
    totalCost: totals.totalCost,
    promptCostDetails: null,
    completionCostDetails: null,
    source: null,
    priceId: null,
    priceTier: null,
    serviceTier: null,
  };
}
