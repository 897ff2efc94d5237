import type { Database } from "../db/database.js";
import { deleteModelPrice } from "../db/sql/delete-model-price.js";
import { insertModelPrice } from "../db/sql/insert-model-price.js";
import { listModelPrices } from "../db/sql/list-model-prices.js";
import { updateModelPrice } from "../db/sql/update-model-price.js";
import { InvalidInputError, NotFoundError } from "../domain/errors.js";
import { isUuid, newId } from "../domain/ids.js";
import type { CreateModelPriceInput, ModelPriceRecord, RepriceOutcome, RepriceRangeInput, UpdateModelPriceInput } from "../domain/model-price.js";
import type { RunTimeInput } from "../domain/trace-run.js";
import { parseRunTime } from "../tracing/ingest/parse-run-time.js";
import { requireOperator } from "./access-scope.js";
import { repriceTraces } from "./model-prices/reprice-traces.js";
import { compilePattern, requireDistinctDates, validatePrice } from "./model-prices/validate-model-price.js";
import type { ServiceContext } from "./service-context.js";

// Ingestion prices every batch from this cache, so a batch costs no price query. Writes through
// this service invalidate it at once; the TTL bounds how long another Hangar process sharing the
// database keeps pricing with a table edited elsewhere.
const PRICE_CACHE_TTL_MS = 30_000;
const priceCache = new WeakMap<Database, { expiresAt: number; prices: Promise<ModelPriceRecord[]> }>();

export const modelPricesService = {
  async list(ctx: ServiceContext): Promise<ModelPriceRecord[]> {
    return listModelPrices(ctx.db.dataSource.manager);
  },

  async get(ctx: ServiceContext, id: string): Promise<ModelPriceRecord> {
    const price = (await modelPricesService.currentPrices(ctx)).find((row) => row.id === id.toLowerCase());
    if (!price) throw new NotFoundError(`Model price '${id}' not found`);
    return price;
  },

  /** The table as ingestion uses it, cached per database (see PRICE_CACHE_TTL_MS). */
  async currentPrices(ctx: ServiceContext): Promise<readonly ModelPriceRecord[]> {
    const now = ctx.now().getTime();
    let entry = priceCache.get(ctx.db);
    if (!entry || entry.expiresAt <= now) {
      entry = { expiresAt: now + PRICE_CACHE_TTL_MS, prices: listModelPrices(ctx.db.dataSource.manager) };
      priceCache.set(ctx.db, entry);
      // A failed load must not be cached.
      entry.prices.catch(() => priceCache.delete(ctx.db));
    }
    return entry.prices;
  },

  async create(ctx: ServiceContext, input: CreateModelPriceInput): Promise<ModelPriceRecord> {
    requireOperator(ctx, "Model price edits");
    const values = validatePrice({ ...input, id: newId() });
    requireDistinctDates([...(await listModelPrices(ctx.db.dataSource.manager)), values]);
    const created = await insertModelPrice(ctx.db.dataSource.manager, values, ctx.now());
    priceCache.delete(ctx.db);
    return created;
  },

  /** Changes the given fields; runs already priced keep their costs until a range is repriced. */
  async update(ctx: ServiceContext, id: string, input: UpdateModelPriceInput): Promise<ModelPriceRecord> {
    requireOperator(ctx, "Model price edits");
    const current = await loadPrice(ctx, id);
    const values = validatePrice({ ...current, ...definedFields(input), id: current.id });
    const others = (await listModelPrices(ctx.db.dataSource.manager)).filter((row) => row.id !== current.id);
    requireDistinctDates([...others, values]);
    const updated = await updateModelPrice(ctx.db.dataSource.manager, values, ctx.now());
    priceCache.delete(ctx.db);
    if (!updated) throw new NotFoundError(`Model price '${id}' not found`);
    return updated;
  },

  async delete(ctx: ServiceContext, id: string): Promise<void> {
    requireOperator(ctx, "Model price edits");
    if (!isUuid(id) || !(await deleteModelPrice(ctx.db.dataSource.manager, id.toLowerCase()))) {
      throw new NotFoundError(`Model price '${id}' not found`);
    }
    priceCache.delete(ctx.db);
  },

  /**
   * Recomputes the costs of LLM runs that started in [from, to) from their stored token counts,
   * service tier and the current price table, in one transaction (reprice-traces.ts). Runs with
   * explicit costs keep them. A dry run counts and rolls back.
   */
  async repriceRange(ctx: ServiceContext, input: RepriceRangeInput): Promise<RepriceOutcome> {
    requireOperator(ctx, "Model price edits");
    const from = requireTime(input.from, "from");
    const to = requireTime(input.to, "to");
    if (from >= to) throw new InvalidInputError("from must be earlier than to");
    const modelFilter = input.modelPattern === undefined ? null : compilePattern(input.modelPattern, "model_pattern");
    const model = input.model?.trim() || null;
    priceCache.delete(ctx.db);
    const prices = await modelPricesService.currentPrices(ctx);
    return repriceTraces(ctx.db, prices, { from, to, model, modelFilter, dryRun: input.dryRun ?? false }, ctx.now());
  },
};

async function loadPrice(ctx: ServiceContext, id: string): Promise<ModelPriceRecord> {
  if (!isUuid(id)) throw new NotFoundError(`Model price '${id}' not found: ids are UUIDs`);
  const price = (await listModelPrices(ctx.db.dataSource.manager)).find((row) => row.id === id.toLowerCase());
  if (!price) throw new NotFoundError(`Model price '${id}' not found`);
  return price;
}

function requireTime(value: RunTimeInput, field: string): string {
  const time = parseRunTime(value);
  if (time === undefined) throw new InvalidInputError(`${field} must be an ISO 8601 time or epoch milliseconds`);
  return time;
}

function definedFields<Input extends object>(input: Input): Partial<Input> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<Input>;
}
