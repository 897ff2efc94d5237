import { describe, expect, it } from "vitest";
import { computeCost } from "../../src/tracing/pricing/compute-cost.js";
import type { ModelPrice } from "../../src/tracing/pricing/model-price.js";

function price(overrides: Partial<ModelPrice> = {}): ModelPrice {
  return {
    id: "price-gpt-4o-mini",
    matchPattern: "gpt-4o-mini(-\\d{4}-\\d{2}-\\d{2})?",
    provider: "openai",
    inputPrice: "0.15",
    outputPrice: "0.6",
    inputDetailPrices: {},
    outputDetailPrices: {},
    tiers: [],
    effectiveFrom: new Date("2024-07-18T00:00:00Z"),
    ...overrides,
  };
}

describe("computeCost", () => {
  it("prices gpt-4o-mini exactly (1000 in / 500 out)", () => {
    expect(computeCost({ input_tokens: 1000, output_tokens: 500, total_tokens: 1500 }, price())).toEqual({
      promptCost: "0.00015",
      completionCost: "0.0003",
      totalCost: "0.00045",
      promptCostDetails: {},
      completionCostDetails: {},
      source: "price-table",
      priceId: "price-gpt-4o-mini",
      priceTier: null,
    });
  });

  it("returns explicit costs exactly, ignoring the price table", () => {
    const result = computeCost(
      {
        input_tokens: 1000,
        output_tokens: 500,
        input_cost: 0.00015,
        output_cost: 0.0003,
        input_cost_details: { cache_read: 0.00001 },
        output_cost_details: { reasoning: 0.0001 },
      },
      price(),
    );
    expect(result).toEqual({
      promptCost: "0.00015",
      completionCost: "0.0003",
      // 0.00015 + 0.0003 in floating point would be 0.00045000000000000004.
      totalCost: "0.00045",
      promptCostDetails: { cache_read: "0.00001" },
      completionCostDetails: { reasoning: "0.0001" },
      source: "explicit",
      priceId: null,
      priceTier: null,
    });
  });

  it("keeps an explicit total and derives missing sides from their details", () => {
    expect(computeCost({ total_cost: 1.5 }, null)).toMatchObject({ promptCost: null, completionCost: null, totalCost: "1.5", source: "explicit" });
    expect(computeCost({ input_cost_details: { audio: 0.25, cache_read: 0.5 }, output_cost: 1e-7 }, null)).toMatchObject({
      promptCost: "0.75",
      completionCost: "0.0000001",
      totalCost: "0.7500001",
    });
  });

  it("prices cache_read tokens at their own rate without counting them twice", () => {
    const gpt4o = price({ id: "p-4o", inputPrice: "2.5", outputPrice: "10", inputDetailPrices: { cache_read: "1.25" } });
    // 2006 input tokens of which 1920 were cached: 1920 × 1.25 + 86 × 2.5, per 1M.
    const result = computeCost(
      { input_tokens: 2006, output_tokens: 300, input_token_details: { cache_read: 1920, audio: 0 } },
      gpt4o,
    );
    expect(result).toEqual({
      promptCost: "0.002615",
      completionCost: "0.003",
      totalCost: "0.005615",
      promptCostDetails: { cache_read: "0.0024" },
      completionCostDetails: {},
      source: "price-table",
      priceId: "p-4o",
      priceTier: null,
    });
  });

  it("prices Anthropic cache writes and reads separately from fresh input", () => {
    const sonnet = price({
      id: "p-sonnet",
      inputPrice: "3",
      outputPrice: "15",
      inputDetailPrices: { cache_creation: "3.75", cache_read: "0.3" },
    });
    // input_tokens already includes both cache kinds (50 fresh + 2051 written + 100 read).
    const result = computeCost(
      { input_tokens: 2201, output_tokens: 503, input_token_details: { cache_creation: 2051, cache_read: 100 } },
      sonnet,
    );
    expect(result.promptCostDetails).toEqual({ cache_creation: "0.00769125", cache_read: "0.00003" });
    expect(result.promptCost).toBe("0.00787125"); // + 50 × 3 / 1M = 0.00015
    expect(result.completionCost).toBe("0.007545");
    expect(result.totalCost).toBe("0.01541625");
  });

  it("bills reasoning tokens at the output rate unless they have their own", () => {
    const usage = { input_tokens: 100, output_tokens: 1000, output_token_details: { reasoning: 800 } };
    const o3 = price({ id: "p-o3", inputPrice: "2", outputPrice: "8" });
    expect(computeCost(usage, o3)).toMatchObject({ completionCost: "0.008", completionCostDetails: {} });
    const split = price({ id: "p-x", inputPrice: "2", outputPrice: "8", outputDetailPrices: { reasoning: "4" } });
    // 800 × 4 + 200 × 8, per 1M.
    expect(computeCost(usage, split)).toMatchObject({ completionCost: "0.0048", completionCostDetails: { reasoning: "0.0032" } });
  });

  it("clamps the base-rate remainder at zero when details exceed the count", () => {
    const result = computeCost(
      { input_tokens: 10, output_tokens: 0, input_token_details: { cache_read: 20 } },
      price({ inputDetailPrices: { cache_read: "0.075" } }),
    );
    expect(result).toMatchObject({ promptCost: "0.0000015", completionCost: "0", totalCost: "0.0000015" });
  });

  it("returns nulls without a price or without token counts", () => {
    const none = { promptCost: null, completionCost: null, totalCost: null, promptCostDetails: {}, completionCostDetails: {}, source: "none", priceId: null, priceTier: null };
    expect(computeCost({ input_tokens: 1000, output_tokens: 500 }, null)).toEqual(none);
    expect(computeCost({}, price())).toEqual(none);
    expect(computeCost({ total_tokens: 1500 }, price())).toEqual(none);
    expect(computeCost({ input_tokens: 1 }, price({ inputPrice: "not a number" }))).toEqual(none);
  });

  it("prices one side when only that count is known", () => {
    expect(computeCost({ input_tokens: 1_000_000 }, price())).toMatchObject({ promptCost: "0.15", completionCost: null, totalCost: "0.15" });
  });
});
