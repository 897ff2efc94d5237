import type { ModelPriceRecord } from "../../domain/model-price.js";

/** Select list and row mapping shared by the model_prices statements (no statement lives here). */
export const MODEL_PRICE_SELECT = `id, model_name, match_pattern, provider, input_price::text AS input_price,
  output_price::text AS output_price, input_detail_prices, output_detail_prices, effective_from, created_at, updated_at`;

// `any`: rows come from pg untyped.
export function modelPriceFromRow(row: Record<string, any>): ModelPriceRecord {
  return {
    id: row.id,
    modelName: row.model_name,
    matchPattern: row.match_pattern,
    provider: row.provider,
    inputPrice: row.input_price,
    outputPrice: row.output_price,
    inputDetailPrices: row.input_detail_prices,
    outputDetailPrices: row.output_detail_prices,
    effectiveFrom: row.effective_from,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
