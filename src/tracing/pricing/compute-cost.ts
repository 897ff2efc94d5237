/**
 * Cost of one run: a pure function of (usage, price) returning a breakdown (STYLE rule 29).
 * Money is computed in decimal.js and returned as plain decimal strings (no exponent, no
 * trailing zeros) for `numeric` columns; binary floats would turn 0.15 × 1000 / 1e6 into
 * 0.00015000000000000001.
 */
import { Decimal } from "decimal.js";
import type { UsageMetadata } from "../usage-keys.js";
import type { ModelPrice } from "./model-price.js";
import { selectTier } from "./select-tier.js";

export interface CostBreakdown {
  promptCost: string | null;
  completionCost: string | null;
  totalCost: string | null;
  promptCostDetails: Record<string, string>;
  completionCostDetails: Record<string, string>;
  source: "explicit" | "price-table" | "none";
  priceId: string | null;
  /** The name of the price row's tier that applied; null: the row's own prices (or no row). */
  priceTier: string | null;
}

/** What a call says about itself beyond its usage: the service tier the provider reported. */
export interface CallPricingFacts {
  serviceTier: string | null;
}

// A private clone so the global Decimal configuration (shared with any other importer) is left
// alone. 60 significant digits keeps every product of a token count (< 1e15) and a price
// exact, so no rounding ever happens in practice.
const Money = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_EVEN });
type Money = InstanceType<typeof Money>;

const TOKENS_PER_PRICE_UNIT = 1_000_000;

const NO_FACTS: CallPricingFacts = { serviceTier: null };

const NO_COST: CostBreakdown = {
  promptCost: null,
  completionCost: null,
  totalCost: null,
  promptCostDetails: {},
  completionCostDetails: {},
  source: "none",
  priceId: null,
  priceTier: null,
};

/** Plain notation; decimal.js already drops trailing zeros, and "-0" reads as "0". */
function format(value: Money): string {
  return value.isZero() ? "0" : value.toFixed();
}

function formatDetails(details: Record<string, Money>): Record<string, string> {
  return Object.fromEntries(Object.entries(details).map(([kind, cost]) => [kind, format(cost)]));
}

function sum(values: readonly Money[]): Money {
  return values.reduce((total, value) => total.plus(value), new Money(0));
}

function hasExplicitCost(usage: UsageMetadata): boolean {
  return (
    usage.input_cost !== undefined ||
    usage.output_cost !== undefined ||
    usage.total_cost !== undefined ||
    usage.input_cost_details !== undefined ||
    usage.output_cost_details !== undefined
  );
}

/**
 * Explicit costs are reported as given (decimal.js reads a number through its shortest
 * round-trip form, so 0.00015 stays "0.00015"). A missing side cost falls back to the sum of its
 * details, and a missing total to the sum of the sides.
 */
function explicitCost(usage: UsageMetadata): CostBreakdown {
  const toMoney = (details: Record<string, number> | undefined): Record<string, Money> =>
    Object.fromEntries(Object.entries(details ?? {}).map(([kind, cost]) => [kind, new Money(cost)]));
  const promptDetails = toMoney(usage.input_cost_details);
  const completionDetails = toMoney(usage.output_cost_details);
  const side = (cost: number | undefined, details: Record<string, Money>): Money | null =>
    cost !== undefined ? new Money(cost) : Object.keys(details).length > 0 ? sum(Object.values(details)) : null;
  const prompt = side(usage.input_cost, promptDetails);
  const completion = side(usage.output_cost, completionDetails);
  const total =
    usage.total_cost !== undefined
      ? new Money(usage.total_cost)
      : prompt === null && completion === null
        ? null
        : sum([prompt ?? new Money(0), completion ?? new Money(0)]);
  return {
    promptCost: prompt === null ? null : format(prompt),
    completionCost: completion === null ? null : format(completion),
    totalCost: total === null ? null : format(total),
    promptCostDetails: formatDetails(promptDetails),
    completionCostDetails: formatDetails(completionDetails),
    source: "explicit",
    priceId: null,
    priceTier: null,
  };
}

/**
 * Accounting rule: detail kinds are a breakdown of the side's count, not extra tokens. Cached
 * input (cache_read, cache_creation) and input audio are part of input_tokens; reasoning and
 * output audio are part of output_tokens. So each detail kind with its own rate is priced at
 * that rate and subtracted, and only the remainder is priced at the base rate; a kind without
 * its own rate simply stays in the remainder. Pricing details on top of the full count would
 * bill those tokens twice. Should details add up to more than the count (an inconsistent
 * report), the remainder is clamped at zero rather than going negative.
 */
function priceSide(
  tokens: number | undefined,
  details: Record<string, number> | undefined,
  baseRate: string,
  detailRates: Record<string, string>,
): { cost: Money; details: Record<string, Money> } | null {
  if (tokens === undefined) return null;
  const perToken = (rate: string): Money => new Money(rate).div(TOKENS_PER_PRICE_UNIT);
  const detailCosts: Record<string, Money> = {};
  let detailTokens = new Money(0);
  for (const [kind, count] of Object.entries(details ?? {})) {
    const rate = detailRates[kind];
    if (rate === undefined) continue;
    const priced = Money.max(0, count);
    detailCosts[kind] = priced.times(perToken(rate));
    detailTokens = detailTokens.plus(priced);
  }
  const remainder = Money.max(0, new Money(Math.max(0, tokens)).minus(detailTokens));
  return { cost: remainder.times(perToken(baseRate)).plus(sum(Object.values(detailCosts))), details: detailCosts };
}

function priceTableCost(usage: UsageMetadata, price: ModelPrice, call: CallPricingFacts): CostBreakdown {
  const tier = selectTier(price.tiers, { inputTokens: usage.input_tokens ?? null, serviceTier: call.serviceTier });
  const rates = tier ?? price;
  // total_tokens alone cannot be priced: input and output rates differ.
  const prompt = priceSide(usage.input_tokens, usage.input_token_details, rates.inputPrice, rates.inputDetailPrices);
  const completion = priceSide(usage.output_tokens, usage.output_token_details, rates.outputPrice, rates.outputDetailPrices);
  if (prompt === null && completion === null) return NO_COST;
  const total = sum([prompt?.cost ?? new Money(0), completion?.cost ?? new Money(0)]);
  return {
    promptCost: prompt === null ? null : format(prompt.cost),
    completionCost: completion === null ? null : format(completion.cost),
    totalCost: format(total),
    promptCostDetails: formatDetails(prompt?.details ?? {}),
    completionCostDetails: formatDetails(completion?.details ?? {}),
    source: "price-table",
    priceId: price.id,
    priceTier: tier?.name ?? null,
  };
}

/**
 * Explicit costs in the usage override the price table (seed §2 "Usage metadata"). Otherwise the
 * row's tier the call meets (select-tier.ts) or else the row's own prices apply.
 */
export function computeCost(usage: UsageMetadata, price: ModelPrice | null, call: CallPricingFacts = NO_FACTS): CostBreakdown {
  try {
    if (hasExplicitCost(usage)) return explicitCost(usage);
    return price === null ? { ...NO_COST } : priceTableCost(usage, price, call);
  } catch (error) {
    // A price string that is not a decimal (rows are validated on write, so only a hand-edited
    // table has one) prices nothing; any other error is a bug and propagates.
    if (error instanceof Error && error.message.startsWith("[DecimalError]")) return { ...NO_COST };
    throw error;
  }
}
