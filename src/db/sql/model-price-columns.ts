import type { ModelPriceRecord } from "../../domain/model-price.js";
import type { PriceTier } from "../../tracing/pricing/model-price.js";

/** Select list and row mapping shared by the model_prices statements (no statement lives here). */
export const MODEL_PRICE_SELECT = `id, model_name, match_pattern, provider, input_price::text AS input_price,
  output_price::text AS output_price, input_detail_prices, output_detail_prices, tiers, effective_from,
  source_url, to_char(as_of, 'YYYY-MM-DD') AS as_of, created_at, updated_at`;

/** How a tier is kept in the tiers jsonb column (snake_case, prices as decimal strings). */
interface StoredTier {
  name: string;
  condition: { input_tokens_above: number | null; service_tier: string | null };
  input_price: string;
  output_price: string;
  input_detail_prices: Record<string, string>;
  output_detail_prices: Record<string, string>;
}

export function tiersColumn(tiers: readonly PriceTier[]): StoredTier[] {
  return tiers.map((tier) => ({
    name: tier.name,
    condition: { input_tokens_above: tier.condition.inputTokensAbove, service_tier: tier.condition.serviceTier },
    input_price: tier.inputPrice,
    output_price: tier.outputPrice,
    input_detail_prices: tier.inputDetailPrices,
    output_detail_prices: tier.outputDetailPrices,
  }));
}

function tierFromColumn(tier: StoredTier): PriceTier {
  return {
    name: tier.name,
    condition: { inputTokensAbove: tier.condition?.input_tokens_above ?? null, serviceTier: tier.condition?.service_tier ?? null },
    inputPrice: tier.input_price,
    outputPrice: tier.output_price,
    inputDetailPrices: tier.input_detail_prices ?? {},
    outputDetailPrices: tier.output_detail_prices ?? {},
  };
}

/** A row as MODEL_PRICE_SELECT reads it (numeric prices and the date as text). */
export interface ModelPriceRow {
  id: string;
  model_name: string;
  match_pattern: string;
  provider: string | null;
  input_price: string;
  output_price: string;
  input_detail_prices: Record<string, string>;
  output_detail_prices: Record<string, string>;
  tiers: StoredTier[] | null;
  effective_from: Date;
  source_url: string | null;
  as_of: string | null;
  created_at: Date;
  updated_at: Date;
}

export function modelPriceFromRow(row: ModelPriceRow): ModelPriceRecord {
  return {
    id: row.id,
    modelName: row.model_name,
    matchPattern: row.match_pattern,
    provider: row.provider,
    inputPrice: row.input_price,
    outputPrice: row.output_price,
    inputDetailPrices: row.input_detail_prices,
    outputDetailPrices: row.output_detail_prices,
    tiers: (row.tiers ?? []).map(tierFromColumn),
    effectiveFrom: row.effective_from,
    sourceUrl: row.source_url,
    asOf: row.as_of,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
