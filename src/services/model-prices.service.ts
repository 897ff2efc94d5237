import { Decimal } from "decimal.js";
import type { Database } from "../db/database.js";
import { deleteModelPrice } from "../db/sql/delete-model-price.js";
import { insertModelPrice, type ModelPriceValues } from "../db/sql/insert-model-price.js";
import { listModelPrices } from "../db/sql/list-model-prices.js";
import { lockTraceRunsToReprice } from "../db/sql/lock-trace-runs-to-reprice.js";
import { updateModelPrice } from "../db/sql/update-model-price.js";
import { updateTraceRunCosts } from "../db/sql/update-trace-run-costs.js";
import { withTransaction } from "../db/tx.js";
import { InvalidInputError, NotFoundError } from "../domain/errors.js";
import { isUuid, newId } from "../domain/ids.js";
import type { CreateModelPriceInput, ModelPriceRecord, RepriceRangeInput, UpdateModelPriceInput } from "../domain/model-price.js";
import type { RunTimeInput } from "../domain/trace-run.js";
import { parseRunTime, runTimeToEpochMs } from "../tracing/ingest/parse-run-time.js";
import { computeCost } from "../tracing/pricing/compute-cost.js";
import { matchPrice } from "../tracing/pricing/match-price.js";
import { requireOperator } from "./access-scope.js";
import type { ServiceContext } from "./service-context.js";

// Ingestion prices every batch from this cache, so a batch costs no price query. Writes through
// this service invalidate it at once; the TTL bounds how long another Hangar process sharing the
// database keeps pricing with a table edited elsewhere.
const PRICE_CACHE_TTL_MS = 30_000;
const priceCache = new WeakMap<Database, { expiresAt: number; prices: Promise<ModelPriceRecord[]> }>();

// Repricing locks and rewrites this many runs per transaction, keeping each transaction short.
const REPRICE_CHUNK = 2_000;

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
    const created = await insertModelPrice(ctx.db.dataSource.manager, values, ctx.now());
    priceCache.delete(ctx.db);
    return created;
  },

  /** Changes the given fields; runs already priced keep their costs until a range is repriced. */
  async update(ctx: ServiceContext, id: string, input: UpdateModelPriceInput): Promise<ModelPriceRecord> {
    requireOperator(ctx, "Model price edits");
    const current = await loadPrice(ctx, id);
    const values = validatePrice({ ...current, ...definedFields(input), id: current.id });
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
   * Recomputes the costs of runs that started in [from, to) from their stored token counts and
   * the current price table. Runs with explicit costs keep them. Returns how many were repriced.
   */
  async repriceRange(ctx: ServiceContext, input: RepriceRangeInput): Promise<{ repricedRuns: number }> {
    requireOperator(ctx, "Model price edits");
    const range = { from: requireTime(input.from, "from"), to: requireTime(input.to, "to") };
    if (range.from >= range.to) throw new InvalidInputError("from must be earlier than to");
    const modelFilter = input.modelPattern === undefined ? null : compilePattern(input.modelPattern, "model_pattern");
    priceCache.delete(ctx.db);
    const prices = await modelPricesService.currentPrices(ctx);
    let after: { startTime: string; id: string } | null = null;
    let repricedRuns = 0;
    for (;;) {
      const chunk = await withTransaction(ctx.db, async (manager) => {
        const runs = await lockTraceRunsToReprice(manager, range, after, REPRICE_CHUNK);
        const selected = runs.filter((run) => !modelFilter || (run.modelName !== null && modelFilter.test(run.modelName)));
        const costs = selected.map((run) => {
          const price = matchPrice(prices, run.modelName, run.provider, new Date(runTimeToEpochMs(run.startTime)));
          const usage = {
            input_tokens: run.promptTokens ?? undefined,
            output_tokens: run.completionTokens ?? undefined,
            total_tokens: run.totalTokens ?? undefined,
            input_token_details: run.promptTokenDetails ?? undefined,
            output_token_details: run.completionTokenDetails ?? undefined,
          };
          const cost = computeCost(usage, price);
          return {
            id: run.id,
            ...cost,
            promptCostDetails: Object.keys(cost.promptCostDetails).length ? cost.promptCostDetails : null,
            completionCostDetails: Object.keys(cost.completionCostDetails).length ? cost.completionCostDetails : null,
            costSource: cost.source,
          };
        });
        await updateTraceRunCosts(manager, costs, ctx.now());
        return { runs, repriced: costs.length };
      });
      repricedRuns += chunk.repriced;
      if (chunk.runs.length < REPRICE_CHUNK) return { repricedRuns };
      const last = chunk.runs[chunk.runs.length - 1];
      after = { startTime: last.startTime, id: last.id };
    }
  },
};

async function loadPrice(ctx: ServiceContext, id: string): Promise<ModelPriceRecord> {
  if (!isUuid(id)) throw new NotFoundError(`Model price '${id}' not found: ids are UUIDs`);
  const price = (await listModelPrices(ctx.db.dataSource.manager)).find((row) => row.id === id.toLowerCase());
  if (!price) throw new NotFoundError(`Model price '${id}' not found`);
  return price;
}

function validatePrice(input: CreateModelPriceInput & { id: string }): ModelPriceValues {
  if (typeof input.modelName !== "string" || input.modelName.trim() === "") {
    throw new InvalidInputError("model_name must be a non-empty string");
  }
  compilePattern(input.matchPattern, "match_pattern");
  const effectiveFrom = input.effectiveFrom === undefined ? new Date(0) : new Date(input.effectiveFrom);
  if (Number.isNaN(effectiveFrom.getTime())) throw new InvalidInputError("effective_from must be a valid time");
  return {
    id: input.id,
    modelName: input.modelName.trim(),
    matchPattern: input.matchPattern,
    provider: input.provider?.trim() || null,
    inputPrice: requirePrice(input.inputPrice, "input_price"),
    outputPrice: requirePrice(input.outputPrice, "output_price"),
    inputDetailPrices: requireDetailPrices(input.inputDetailPrices ?? {}, "input_detail_prices"),
    outputDetailPrices: requireDetailPrices(input.outputDetailPrices ?? {}, "output_detail_prices"),
    effectiveFrom,
  };
}

function compilePattern(pattern: unknown, field: string): RegExp {
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
  return price.toFixed();
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

function requireTime(value: RunTimeInput, field: string): string {
  const time = parseRunTime(value);
  if (time === undefined) throw new InvalidInputError(`${field} must be an ISO 8601 time or epoch milliseconds`);
  return time;
}

function definedFields<Input extends object>(input: Input): Partial<Input> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<Input>;
}
