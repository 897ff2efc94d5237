import { describe, expect, it } from "vitest";
import { identifyServiceTier } from "../../src/tracing/identify-service-tier.js";
import { computeCost } from "../../src/tracing/pricing/compute-cost.js";
import { matchPrice } from "../../src/tracing/pricing/match-price.js";
import type { ModelPrice, PriceTier } from "../../src/tracing/pricing/model-price.js";
import { findTierOverlap, selectTier } from "../../src/tracing/pricing/select-tier.js";

// Tiered and dated prices, pure: which row and which tier price a call, and what it costs.

function tier(name: string, above: number | null, serviceTier: string | null, input: string, output: string, cacheRead?: string): PriceTier {
  return {
    name,
    condition: { inputTokensAbove: above, serviceTier },
    inputPrice: input,
    outputPrice: output,
    inputDetailPrices: cacheRead ? { cache_read: cacheRead } : {},
    outputDetailPrices: {},
  };
}

// Shaped like the seeded gpt-5.4 row: long context past 272k, flex at half price, and their overlap.
const GPT_54: ModelPrice = {
  id: "gpt-5.4",
  matchPattern: "^gpt-5\\.4$",
  provider: null,
  inputPrice: "2.5",
  outputPrice: "15",
  inputDetailPrices: { cache_read: "0.25" },
  outputDetailPrices: {},
  tiers: [
    tier("long context", 272_000, null, "5", "22.5", "0.5"),
    tier("flex", null, "flex", "1.25", "7.5", "0.125"),
    tier("flex long context", 272_000, "flex", "2.5", "11.25", "0.25"),
  ],
  effectiveFrom: new Date(0),
};

describe("selectTier and computeCost per tier", () => {
  const cases: Array<{ call: string; input: number; cached?: number; serviceTier: string | null; tier: string | null; cost: string }> = [
    { call: "standard", input: 100_000, serviceTier: null, tier: null, cost: "15.25" },
    { call: "exactly at the threshold (not above)", input: 272_000, serviceTier: null, tier: null, cost: "15.68" },
    { call: "one token past the threshold", input: 272_001, serviceTier: null, tier: "long context", cost: "23.860005" },
    { call: "long context", input: 1_000_000, serviceTier: null, tier: "long context", cost: "27.5" },
    { call: "flex", input: 100_000, serviceTier: "flex", tier: "flex", cost: "7.625" },
    { call: "flex past the threshold: the overlap tier", input: 1_000_000, serviceTier: "flex", tier: "flex long context", cost: "13.75" },
    { call: "an unknown service tier prices as standard", input: 100_000, serviceTier: "scale", tier: null, cost: "15.25" },
    { call: "priority has no tier here: standard; long context still applies", input: 1_000_000, serviceTier: "priority", tier: "long context", cost: "27.5" },
    // Cached tokens count toward the threshold (they are part of input_tokens) and get the tier's cache rate.
    { call: "cached input counts toward the threshold", input: 300_000, cached: 200_000, serviceTier: null, tier: "long context", cost: "23.1" },
  ];
  for (const { call, input, cached, serviceTier, tier: expected, cost } of cases) {
    it(call, () => {
      expect(selectTier(GPT_54.tiers, { inputTokens: input, serviceTier })?.name ?? null).toBe(expected);
      const usage = {
        input_tokens: input,
        output_tokens: 1_000_000,
        ...(cached ? { input_token_details: { cache_read: cached } } : {}),
      };
      const breakdown = computeCost(usage, GPT_54, { serviceTier });
      expect({ total: breakdown.totalCost, tier: breakdown.priceTier, priceId: breakdown.priceId }).toEqual({
        total: cost,
        tier: expected,
        priceId: "gpt-5.4",
      });
    });
  }

  it("an explicit cost wins over every tier", () => {
    const breakdown = computeCost({ input_tokens: 1_000_000, output_tokens: 10, total_cost: 0.5 }, GPT_54, { serviceTier: "flex" });
    expect(breakdown).toMatchObject({ totalCost: "0.5", source: "explicit", priceTier: null, priceId: null });
  });
});

describe("findTierOverlap", () => {
  const cases: Array<{ name: string; tiers: PriceTier[]; problem: RegExp | null }> = [
    { name: "the seeded gpt-5.4 tiers", tiers: GPT_54.tiers, problem: null },
    { name: "nested thresholds (the higher one is more specific)", tiers: [tier("a", 100, null, "1", "1"), tier("b", 200, null, "2", "2")], problem: null },
    { name: "different service tiers never meet together", tiers: [tier("flex", null, "flex", "1", "1"), tier("priority", null, "priority", "2", "2")], problem: null },
    { name: "the same condition twice", tiers: [tier("a", 200, null, "1", "1"), tier("b", 200, null, "2", "2")], problem: /tiers 'a' and 'b' have the same condition/ },
    {
      name: "a service tier and a threshold without their overlap",
      tiers: [tier("flex", null, "flex", "1", "1"), tier("long", 200_000, null, "2", "2")],
      problem: /tiers 'flex' and 'long' overlap: .*service tier 'flex' with more than 200000 input tokens/,
    },
    {
      name: "two service tiers with thresholds, one overlap missing",
      tiers: [tier("flex", null, "flex", "1", "1"), tier("long", 1000, null, "2", "2"), tier("flex 500", 500, "flex", "3", "3")],
      problem: /tiers 'flex' and 'long' overlap/,
    },
  ];
  for (const { name, tiers, problem } of cases) {
    it(name, () => {
      const found = findTierOverlap(tiers);
      if (problem === null) expect(found).toBeNull();
      else expect(found).toMatch(problem);
    });
  }
});

describe("matchPrice by effective date, then tiers", () => {
  // deepseek-chat changed price twice in September 2025; the seed keeps all three rows.
  const row = (id: string, from: string, input: string): ModelPrice => ({
    id,
    matchPattern: "^deepseek-chat$",
    provider: null,
    inputPrice: input,
    outputPrice: "1",
    inputDetailPrices: {},
    outputDetailPrices: {},
    tiers: [],
    effectiveFrom: new Date(from),
  });
  const prices = [row("v3", "1970-01-01T00:00:00Z", "0.27"), row("sept-5", "2025-09-05T16:00:00Z", "0.56"), row("v3.2", "2025-09-29T00:00:00Z", "0.28")];
  const cases = [
    { at: "2025-09-05T15:59:59.999Z", id: "v3", cost: "1.27" },
    { at: "2025-09-05T16:00:00Z", id: "sept-5", cost: "1.56" },
    { at: "2025-09-28T23:59:59Z", id: "sept-5", cost: "1.56" },
    { at: "2025-09-29T00:00:00Z", id: "v3.2", cost: "1.28" },
    { at: "2026-11-26T00:00:00Z", id: "v3.2", cost: "1.28" },
  ];
  for (const { at, id, cost } of cases) {
    it(`a call at ${at} is priced by ${id}`, () => {
      const price = matchPrice(prices, "deepseek-chat", "deepseek", new Date(at));
      expect(price?.id).toBe(id);
      expect(computeCost({ input_tokens: 1_000_000, output_tokens: 1_000_000 }, price).totalCost).toBe(cost);
    });
  }
});

describe("identifyServiceTier", () => {
  const cases: Array<{ shape: string; run: { outputs: unknown; extra: unknown }; tier: string | null }> = [
    { shape: "an OpenAI completion (wrapOpenAI)", run: { outputs: { service_tier: "flex", usage: {} }, extra: {} }, tier: "flex" },
    { shape: "an Anthropic message", run: { outputs: { usage: { input_tokens: 1, service_tier: "batch" } }, extra: {} }, tier: "batch" },
    {
      shape: "a LangChain generation's response_metadata",
      run: {
        outputs: { generations: [[{ message: { lc: 1, kwargs: { content: "ok", response_metadata: { service_tier: "Priority" } } } }]] },
        extra: {},
      },
      tier: "priority",
    },
    { shape: "only the request", run: { outputs: {}, extra: { invocation_params: { service_tier: "flex" } } }, tier: "flex" },
    {
      shape: "the response over the request (auto answered as default)",
      run: { outputs: { service_tier: "default" }, extra: { invocation_params: { service_tier: "auto" } } },
      tier: "default",
    },
    { shape: "nothing", run: { outputs: { content: "ok" }, extra: null }, tier: null },
  ];
  for (const { shape, run, tier: expected } of cases) {
    it(shape, () => expect(identifyServiceTier(run)).toBe(expected));
  }
});
