/**
 * `hangar prices export` / `import`: the price table as one JSON document, so a table moves
 * between deployments. Import replaces the whole table in one transaction and refuses the whole
 * file, naming the row, when any row breaks a rule (validate-model-price.ts), so a table is never
 * half imported. Export then import into another database round-trips exactly (ids included).
 */
import { z } from "zod";
import type { Database } from "../../db/database.js";
import type { ModelPriceValues } from "../../db/sql/insert-model-price.js";
import { listModelPrices } from "../../db/sql/list-model-prices.js";
import { tiersColumn } from "../../db/sql/model-price-columns.js";
import { deleteAllModelPrices, insertModelPrices } from "../../db/sql/replace-model-prices.js";
import { withTransaction } from "../../db/tx.js";
import { AppError, InvalidInputError } from "../../domain/errors.js";
import { newId } from "../../domain/ids.js";
import type { ModelPriceRecord } from "../../domain/model-price.js";
import { requireDistinctDates, validatePrice } from "./validate-model-price.js";

export const PRICE_FILE_FORMAT = "hangar-model-prices";

// Any UUID: seeded ids are derived from hashes and carry no RFC 4122 version.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Decimal strings are exact; plain JSON numbers are accepted and read through their shortest form.
const Price = z.union([z.string(), z.number()]);
const DetailPrices = z.record(z.string(), Price);

const PriceTierRow = z.strictObject({
  name: z.string(),
  condition: z.strictObject({
    input_tokens_above: z.number().int().nonnegative().nullish(),
    service_tier: z.string().nullish(),
  }),
  input_price: Price,
  output_price: Price,
  input_detail_prices: DetailPrices.optional(),
  output_detail_prices: DetailPrices.optional(),
});

const PriceRow = z.strictObject({
  id: z.string().regex(UUID, "must be a UUID").optional(),
  model_name: z.string(),
  match_pattern: z.string(),
  provider: z.string().nullish(),
  input_price: Price,
  output_price: Price,
  input_detail_prices: DetailPrices.optional(),
  output_detail_prices: DetailPrices.optional(),
  tiers: z.array(PriceTierRow).optional(),
  effective_from: z.iso.datetime({ offset: true }),
  source_url: z.string().nullish(),
  as_of: z.iso.date().nullish(),
});

export const PriceFile = z.strictObject({
  format: z.literal(PRICE_FILE_FORMAT),
  version: z.literal(1),
  prices: z.array(z.unknown()),
});

export type PriceFileRow = z.infer<typeof PriceRow>;
export type PriceFileDocument = { format: typeof PRICE_FILE_FORMAT; version: 1; prices: PriceFileRow[] };

/** The whole table as a price file, rows in the table's order (model name, effective date, id). */
export async function exportPriceFile(db: Pick<Database, "dataSource">): Promise<PriceFileDocument> {
  const prices = await listModelPrices(db.dataSource.manager);
  return { format: PRICE_FILE_FORMAT, version: 1, prices: prices.map(toFileRow) };
}

/** Replaces the table with the file's rows, all or nothing; answers how many rows it replaced and wrote. */
export async function importPriceFile(
  db: Pick<Database, "dataSource">,
  document: unknown,
  now: Date,
): Promise<{ removed: number; imported: number }> {
  const rows = parsePriceFile(document);
  return withTransaction(db, async (manager) => {
    const removed = await deleteAllModelPrices(manager);
    await insertModelPrices(manager, rows, now);
    return { removed, imported: rows.length };
  });
}

/** Every row checked before anything is written; the first problem refuses the file, naming its row. */
export function parsePriceFile(document: unknown): ModelPriceValues[] {
  const file = PriceFile.safeParse(document);
  if (!file.success) throw new InvalidInputError(`not a price file: ${z.prettifyError(file.error)}`);
  const ids = new Set<string>();
  const rows = file.data.prices.map((raw, index) => {
    const name = `prices[${index}]${isNamed(raw) ? ` (${raw.model_name})` : ""}`;
    const parsed = PriceRow.safeParse(raw);
    if (!parsed.success) throw new InvalidInputError(`${name}: ${z.prettifyError(parsed.error)}`);
    const row = parsed.data;
    const id = row.id?.toLowerCase() ?? newId();
    if (ids.has(id)) throw new InvalidInputError(`${name}: id ${id} appears twice`);
    ids.add(id);
    try {
      return validatePrice({ ...fromFileRow(row), id });
    } catch (error) {
      if (error instanceof AppError) throw new InvalidInputError(`${name}: ${error.message}`);
      throw error;
    }
  });
  requireDistinctDates(rows);
  return rows;
}

function isNamed(raw: unknown): raw is { model_name: string } {
  return typeof raw === "object" && raw !== null && typeof (raw as { model_name?: unknown }).model_name === "string";
}

function fromFileRow(row: PriceFileRow) {
  return {
    modelName: row.model_name,
    matchPattern: row.match_pattern,
    provider: row.provider ?? null,
    inputPrice: row.input_price,
    outputPrice: row.output_price,
    inputDetailPrices: row.input_detail_prices,
    outputDetailPrices: row.output_detail_prices,
    tiers: (row.tiers ?? []).map((tier) => ({
      name: tier.name,
      condition: { inputTokensAbove: tier.condition.input_tokens_above ?? null, serviceTier: tier.condition.service_tier ?? null },
      inputPrice: tier.input_price,
      outputPrice: tier.output_price,
      inputDetailPrices: tier.input_detail_prices,
      outputDetailPrices: tier.output_detail_prices,
    })),
    effectiveFrom: row.effective_from,
    sourceUrl: row.source_url ?? null,
    asOf: row.as_of ?? null,
  };
}

function toFileRow(price: ModelPriceRecord): PriceFileRow {
  return {
    id: price.id,
    model_name: price.modelName,
    match_pattern: price.matchPattern,
    provider: price.provider,
    input_price: price.inputPrice,
    output_price: price.outputPrice,
    input_detail_prices: price.inputDetailPrices,
    output_detail_prices: price.outputDetailPrices,
    // The file keeps tiers as the tiers column does: one snake_case shape.
    tiers: tiersColumn(price.tiers),
    effective_from: price.effectiveFrom.toISOString(),
    source_url: price.sourceUrl,
    as_of: price.asOf,
  };
}
