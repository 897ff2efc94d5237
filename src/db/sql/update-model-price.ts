import type { EntityManager } from "typeorm";
import type { ModelPriceRecord } from "../../domain/model-price.js";
import { modelPriceParameters, type ModelPriceValues } from "./insert-model-price.js";
import { MODEL_PRICE_SELECT, modelPriceFromRow, type ModelPriceRow } from "./model-price-columns.js";
import { runStatement } from "../run-statement.js";

/** Overwrites every editable field of one price row; null when the row does not exist. */
export async function updateModelPrice(
  manager: EntityManager,
  price: ModelPriceValues,
  now: Date,
): Promise<ModelPriceRecord | null> {
  const { rows } = await runStatement<ModelPriceRow>(
    manager,
    `UPDATE model_prices SET model_name = $2, match_pattern = $3, provider = $4, input_price = $5::numeric,
       output_price = $6::numeric, input_detail_prices = $7::jsonb, output_detail_prices = $8::jsonb,
       effective_from = $9, tiers = $10::jsonb, source_url = $11, as_of = $12::date, updated_at = $13
     WHERE id = $1 RETURNING ${MODEL_PRICE_SELECT}`,
    [...modelPriceParameters(price), now],
  );
  return rows[0] ? modelPriceFromRow(rows[0]) : null;
}
