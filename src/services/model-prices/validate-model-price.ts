/**
 * The rules a price row must meet, whoever writes it (GraphQL, `hangar prices import`): decimal
 * prices of zero or more, a valid regular expression, tiers with a condition each and no two a
 * call could meet ambiguously, and at most one row per pattern, provider and effective date.
 */
import { Decimal } from "decimal.js";
import type { ModelPriceValues } from "../../db/sql/insert-model-price.js";
import { InvalidInputError } from "../../domain/errors.js";
import type { CreateModelPriceInput, PriceTierInput } from "../../domain/model-price.js";
import type { PriceTier } from "../../tracing/pricing/model-price.js";
import { findTierOverlap } from "../../tracing/pricing/select-tier.js";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

export function validatePrice(input: CreateModelPriceInput & { id: string }): ModelPriceValues {
  if (typeof input.modelName !== "string" || input.modelName.trim() === "") {
    throw new InvalidInputError("model_name must be a non-empty string");
  }
  compilePattern(input.matchPattern, "match_pattern");
  const effectiveFrom = input.effectiveFrom === undefined ? new Date(0) : new Date(input.effectiveFrom);
  if (Number.isNaN(effectiveFrom.getTime())) throw new InvalidInputError("effective_from must be a valid time");
  const asOf = input.asOf ?? null;
  if (asOf !== null && (!DAY.test(asOf) || Number.isNaN(Date.parse(`${asOf}T00:00:00Z`)))) {
    throw new InvalidInputError(`as_of must be a day (YYYY-MM-DD), got ${JSON.stringify(asOf)}`);
  }
  const sourceUrl = input.sourceUrl?.trim() || null;
  if (sourceUrl !== null && !URL.canParse(sourceUrl)) throw new InvalidInputError(`source_url is not a URL: ${sourceUrl}`);
  return {
    id: input.id,
    modelName: input.modelName.trim(),
    matchPattern: input.matchPattern,
    provider: input.provider?.trim() || null,
    inputPrice: requirePrice(input.inputPrice, "input_price"),
    outputPrice: requirePrice(input.outputPrice, "output_price"),
    inputDetailPrices: requireDetailPrices(input.inputDetailPrices ?? {}, "input_detail_prices"),
    outputDetailPrices: requireDetailPrices(input.outputDetailPrices ?? {}, "output_detail_prices"),
    tiers: requireTiers(input.tiers ?? []),
    effectiveFrom,
    sourceUrl,
    asOf,
  };
}

/**
 * Two rows for the same pattern and provider from the same instant would leave the choice
 * between them to their ids: refused, naming both.
 */
export function requireDistinctDates(rows: readonly Pick<ModelPriceValues, "id" | "modelName" | "matchPattern" | "provider" | "effectiveFrom">[]): void {
  const seen = new Map<string, (typeof rows)[number]>();
  for (const row of rows) {
    const key = JSON.stringify([row.matchPattern, row.provider?.toLowerCase() ?? null, row.effectiveFrom.getTime()]);
    const other = seen.get(key);
    if (other && other.id !== row.id) {
      throw new InvalidInputError(
        `price '${row.modelName}' (${row.id}) has the same match_pattern, provider and effective_from ` +
          `(${row.effectiveFrom.toISOString()}) as '${other.modelName}' (${other.id})`,
      );
    }
    seen.set(key, row);
  }
}

function requireTiers(tiers: unknown): PriceTier[] {
  if (!Array.isArray(tiers)) throw new InvalidInputError("tiers must be a list");
  const names = new Set<string>();
  const valid = tiers.map((tier: PriceTierInput, index) => {
    const field = `tiers[${index}]`;
    if (typeof tier !== "object" || tier === null) throw new InvalidInputError(`${field} must be an object`);
    const name = typeof tier.name === "string" ? tier.name.trim() : "";
    if (name === "") throw new InvalidInputError(`${field}.name must be a non-empty string`);
    if (names.has(name)) throw new InvalidInputError(`${field}: two tiers are named '${name}'`);
    names.add(name);
    const threshold = tier.condition?.inputTokensAbove ?? null;
    if (threshold !== null && !(Number.isSafeInteger(threshold) && threshold >= 0)) {
      throw new InvalidInputError(`${field}.condition.input_tokens_above must be a whole number of tokens, got ${JSON.stringify(threshold)}`);
    }
    const serviceTier = tier.condition?.serviceTier;
    if (serviceTier != null && (typeof serviceTier !== "string" || serviceTier.trim() === "")) {
      throw new InvalidInputError(`${field}.condition.service_tier must be a non-empty string`);
    }
    if (threshold === null && serviceTier == null) {
      throw new InvalidInputError(`${field}.condition needs input_tokens_above or service_tier (else it always applies)`);
    }
    return {
      name,
      condition: { inputTokensAbove: threshold, serviceTier: serviceTier?.trim().toLowerCase() ?? null },
      inputPrice: requirePrice(tier.inputPrice, `${field}.input_price`),
      outputPrice: requirePrice(tier.outputPrice, `${field}.output_price`),
      inputDetailPrices: requireDetailPrices(tier.inputDetailPrices ?? {}, `${field}.input_detail_prices`),
      outputDetailPrices: requireDetailPrices(tier.outputDetailPrices ?? {}, `${field}.output_detail_prices`),
    };
  });
  const overlap = findTierOverlap(valid);
  if (overlap !== null) throw new InvalidInputError(overlap);
  return valid;
}

export function compilePattern(pattern: unknown, field: string): RegExp {
  if (typeof pattern !== "string" || pattern === "") throw new InvalidInputError(`${field} must be a non-empty string`);
  try {
    return new RegExp(pattern);
  } catch (error) {
    throw new InvalidInputError(`${field} is not a valid regular expression: ${(error as Error).message}`);
  }
}

function requirePrice(value: unknown, field: string): string {
  let price: Decimal;
  try {
    price = new Decimal(value as Decimal.Value);
  } catch {
    throw new InvalidInputError(`${field} must be a decimal number of USD per 1M tokens, got ${JSON.stringify(value)}`);
  }
  if (!price.isFinite() || price.isNegative()) throw new InvalidInputError(`${field} must be zero or more`);
  // A plain decimal string is kept as written ("0.60" stays "0.60", as numeric keeps it), so an
  // exported table imports unchanged; anything else (numbers, exponents) in plain notation.
  return typeof value === "string" && PLAIN_DECIMAL.test(value) ? value : price.toFixed();
}

function requireDetailPrices(prices: Record<string, unknown>, field: string): Record<string, string> {
  if (typeof prices !== "object" || prices === null || Array.isArray(prices)) {
    throw new InvalidInputError(`${field} must be an object of token kind to price`);
  }
  return Object.fromEntries(
    Object.entries(prices).map(([kind, price]) => {
      if (kind.trim() === "") throw new InvalidInputError(`${field}: token kinds must be non-empty`);
      return [kind, requirePrice(price, `${field}.${kind}`)];
    }),
  );
}
