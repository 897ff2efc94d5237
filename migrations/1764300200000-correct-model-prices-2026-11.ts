import type { MigrationInterface, QueryRunner } from "typeorm";
import { seedId } from "./1763760098200-seed-model-prices-2026-11.js";
import { MODEL_PRICE_CORRECTIONS_2026_11, type PriceCorrection, seededRowOf } from "./seed/model-price-corrections-2026-11.js";

/**
 * Corrects rows of the November 2026 seed in place (seed/model-price-corrections-2026-11.ts): a
 * row found wrong for its date is rewritten, and a row no pricing page confirmed is deleted. A
 * later-dated row would leave the wrong price on every call before it; rewriting the row of that
 * date prices them right on the next re-pricing. Rows an operator edited (updated_at past
 * created_at) are theirs and left alone, as the seed left them; rows the seed skipped do not
 * exist, so nothing happens to them. Traces keep their stored costs until an operator re-prices.
 */
export class CorrectModelPrices2026111764300200000 implements MigrationInterface {
  name = "CorrectModelPrices2026111764300200000";

  async up(queryRunner: QueryRunner): Promise<void> {
    const rewritten = MODEL_PRICE_CORRECTIONS_2026_11.flatMap(({ change, ...correction }) =>
      change === "remove" ? [] : [{ ...seededRowOf(correction), ...change, id: idOf(correction) }],
    );
    await rewriteRows(queryRunner, rewritten);
    const removed = MODEL_PRICE_CORRECTIONS_2026_11.filter((correction) => correction.change === "remove").map(idOf);
    await queryRunner.query(`DELETE FROM model_prices WHERE id = ANY($1::uuid[]) AND updated_at = created_at`, [removed]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const rewritten = MODEL_PRICE_CORRECTIONS_2026_11.filter((correction) => correction.change !== "remove").map((correction) => ({
      ...seededRowOf(correction),
      id: idOf(correction),
    }));
    await rewriteRows(queryRunner, rewritten);
    const removed = MODEL_PRICE_CORRECTIONS_2026_11.filter((correction) => correction.change === "remove").map((correction) => ({
      ...seededRowOf(correction),
      id: idOf(correction),
    }));
    await queryRunner.query(
      `INSERT INTO model_prices (id, model_name, match_pattern, provider, input_price, output_price,
                                 input_detail_prices, output_detail_prices, tiers, effective_from, source_url, as_of)
       SELECT p.id, p.model_name, p.match_pattern, p.provider, p.input_price, p.output_price, p.input_detail_prices,
              p.output_detail_prices, p.tiers, p.effective_from, p.source_url, p.as_of
       FROM jsonb_to_recordset($1::jsonb) AS p(id uuid, model_name text, match_pattern text, provider text,
         input_price numeric, output_price numeric, input_detail_prices jsonb, output_detail_prices jsonb, tiers jsonb,
         effective_from timestamptz, source_url text, as_of date)
       ON CONFLICT (id) DO NOTHING`,
      [JSON.stringify(removed)],
    );
  }
}

function idOf(correction: Pick<PriceCorrection, "model_name" | "effective_from">): string {
  return seedId(correction.model_name, correction.effective_from);
}

/** Rates, tiers and provenance of seeded rows, by id; updated_at stays, so the rows still read as the seed's own. */
async function rewriteRows(queryRunner: QueryRunner, rows: object[]): Promise<void> {
  await queryRunner.query(
    `UPDATE model_prices m
     SET input_price = p.input_price, output_price = p.output_price, input_detail_prices = p.input_detail_prices,
         output_detail_prices = p.output_detail_prices, tiers = p.tiers, source_url = p.source_url, as_of = p.as_of
     FROM jsonb_to_recordset($1::jsonb) AS p(id uuid, input_price numeric, output_price numeric,
       input_detail_prices jsonb, output_detail_prices jsonb, tiers jsonb, source_url text, as_of date)
     WHERE m.id = p.id AND m.updated_at = m.created_at`,
    [JSON.stringify(rows)],
  );
}
