import type { EntityManager } from "typeorm";
import type { ModelPriceRecord } from "../../domain/model-price.js";
import { MODEL_PRICE_SELECT, modelPriceFromRow, tiersColumn, type ModelPriceRow } from "./model-price-columns.js";
import { runStatement } from "../run-statement.js";

export type ModelPriceValues = Omit<ModelPriceRecord, "createdAt" | "updatedAt">;

/** The statement parameters $1..$12 of a price row, in the order insert and update use them. */
export function modelPriceParameters(price: ModelPriceValues): unknown[] {
  return [
    price.id,
    price.modelName,
    price.matchPattern,
    price.provider,
    price.inputPrice,
    price.outputPrice,
    JSON.stringify(price.inputDetailPrices),
    JSON.stringify(price.outputDetailPrices),
    price.effectiveFrom,
    JSON.stringify(tiersColumn(price.tiers)),
    price.sourceUrl,
    price.asOf,
  ];
}

/** Inserts one price row and returns it as stored. */
export async function insertModelPrice(manager: EntityManager, price: ModelPriceValues, now: Date): Promise<ModelPriceRecord> {
  const { rows } = await runStatement<ModelPriceRow>(
    manager,
    `INSERT INTO model_prices (id, model_name, match_pattern, provider, input_price, output_price,
       input_detail_prices, output_detail_prices, effective_from, tiers, source_url, as_of, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::numeric, $6::numeric, $7::jsonb, $8::jsonb, $9, $10::jsonb, $11, $12::date, $13, $13)
     RETURNING ${MODEL_PRICE_SELECT}`,
    [...modelPriceParameters(price), now],
  );
  return modelPriceFromRow(rows[0]!);
}
