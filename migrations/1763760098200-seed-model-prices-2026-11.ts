import { createHash } from "node:crypto";
import type { MigrationInterface, QueryRunner } from "typeorm";
import { MODEL_PRICES_2026_11 } from "./seed/model-prices-2026-11.js";

/**
 * Adds the November 2026 list prices (seed/model-prices-2026-11.ts): new models, tiers, price
 * changes with their effective dates. Rows are only ever added, never rewritten, and a row is
 * skipped where the operator has taken over its model: when a row of the same pattern and
 * provider was edited (updated_at past created_at) or already takes effect on the same day or
 * later. Ids derive from the model and date, so every installation gets the same ids and running
 * this twice adds nothing.
 */
export class SeedModelPrices2026111763760098200 implements MigrationInterface {
  name = "SeedModelPrices2026111763760098200";

  async up(queryRunner: QueryRunner): Promise<void> {
    const rows = MODEL_PRICES_2026_11.prices.map((price) => ({ ...price, id: seedId(price.model_name, price.effective_from) }));
    await queryRunner.query(
      `INSERT INTO model_prices (id, model_name, match_pattern, provider, input_price, output_price,
                                 input_detail_prices, output_detail_prices, tiers, effective_from, source_url, as_of)
       SELECT p.id, p.model_name, p.match_pattern, p.provider, p.input_price, p.output_price, p.input_detail_prices,
              p.output_detail_prices, p.tiers, p.effective_from, p.source_url, p.as_of
       FROM jsonb_to_recordset($1::jsonb) AS p(id uuid, model_name text, match_pattern text, provider text,
         input_price numeric, output_price numeric, input_detail_prices jsonb, output_detail_prices jsonb, tiers jsonb,
         effective_from timestamptz, source_url text, as_of date)
       WHERE NOT EXISTS (
         SELECT 1 FROM model_prices m
         WHERE m.match_pattern = p.match_pattern AND m.provider IS NOT DISTINCT FROM p.provider
           AND (m.updated_at > m.created_at OR m.effective_from >= p.effective_from))
       ON CONFLICT (id) DO NOTHING`,
      [JSON.stringify(rows)],
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const ids = MODEL_PRICES_2026_11.prices.map((price) => seedId(price.model_name, price.effective_from));
    await queryRunner.query(`DELETE FROM model_prices WHERE id = ANY($1::uuid[]) AND updated_at = created_at`, [ids]);
  }
}

/** The id a row of this seed gets: every installation has the same ids (the corrections of 1764300200000 find rows by it). */
export function seedId(model: string, effectiveFrom: string): string {
  const hash = createHash("md5").update(`hangar-model-price-2026-11:${model}:${new Date(effectiveFrom).toISOString()}`).digest("hex");
  return `${hash.slice(0, 8)}-${hash.slice(8, 12)}-${hash.slice(12, 16)}-${hash.slice(16, 20)}-${hash.slice(20, 32)}`;
}
