import type { EntityManager } from "typeorm";
import type { ModelPriceValues } from "./insert-model-price.js";
import { tiersColumn } from "./model-price-columns.js";
import { runStatement } from "../run-statement.js";

/**
 * Empties the price table and fills it with `prices` (`hangar prices import`). Two statements:
 * one statement cannot delete and re-insert the same id. The caller runs both in one
 * transaction, so readers see the old table or the new one, never an empty one.
 */
export async function deleteAllModelPrices(manager: EntityManager): Promise<number> {
  const { affected } = await runStatement(manager, `DELETE FROM model_prices`);
  return affected;
}

/** Inserts many price rows in one statement (the batch travels as one jsonb parameter). */
export async function insertModelPrices(manager: EntityManager, prices: readonly ModelPriceValues[], now: Date): Promise<void> {
  if (prices.length === 0) return;
  const payload = prices.map((price) => ({
    id: price.id,
    model_name: price.modelName,
    match_pattern: price.matchPattern,
    provider: price.provider,
    input_price: price.inputPrice,
    output_price: price.outputPrice,
    input_detail_prices: price.inputDetailPrices,
    output_detail_prices: price.outputDetailPrices,
    tiers: tiersColumn(price.tiers),
    effective_from: price.effectiveFrom.toISOString(),
    source_url: price.sourceUrl,
    as_of: price.asOf,
  }));
  await runStatement(
    manager,
    `INSERT INTO model_prices (id, model_name, match_pattern, provider, input_price, output_price,
       input_detail_prices, output_detail_prices, tiers, effective_from, source_url, as_of, created_at, updated_at)
     SELECT p.id, p.model_name, p.match_pattern, p.provider, p.input_price, p.output_price, p.input_detail_prices,
            p.output_detail_prices, p.tiers, p.effective_from, p.source_url, p.as_of, $2, $2
     FROM jsonb_to_recordset($1::jsonb) AS p(id uuid, model_name text, match_pattern text, provider text,
       input_price numeric, output_price numeric, input_detail_prices jsonb, output_detail_prices jsonb, tiers jsonb,
       effective_from timestamptz, source_url text, as_of date)`,
    [JSON.stringify(payload), now],
  );
}
