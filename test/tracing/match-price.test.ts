import { describe, expect, it } from "vitest";
import type { ModelPrice } from "../../src/tracing/pricing/model-price.js";
import { matchPrice } from "../../src/tracing/pricing/match-price.js";

function row(id: string, matchPattern: string, effectiveFrom: string, provider: string | null = null): ModelPrice {
  return {
    id,
    matchPattern,
    provider,
    inputPrice: "1",
    outputPrice: "2",
    inputDetailPrices: {},
    outputDetailPrices: {},
    tiers: [],
    effectiveFrom: new Date(effectiveFrom),
  };
}

const at = new Date("2025-06-01T00:00:00Z");

describe("matchPrice", () => {
  it("matches the whole model name, case-insensitively", () => {
    const prices = [row("4o", "gpt-4o(-\\d{4}-\\d{2}-\\d{2})?", "2024-05-13")];
    expect(matchPrice(prices, "gpt-4o", null, at)?.id).toBe("4o");
    expect(matchPrice(prices, "GPT-4o-2024-08-06", null, at)?.id).toBe("4o");
    expect(matchPrice(prices, "gpt-4o-mini", null, at)).toBeNull();
    expect(matchPrice(prices, "my-gpt-4o", null, at)).toBeNull();
    expect(matchPrice(prices, null, null, at)).toBeNull();
  });

  it("prefers the latest row in effect at the given time", () => {
    const prices = [
      row("old", "gpt-4o", "2024-05-13"),
      row("new", "gpt-4o", "2024-10-01"),
      row("future", "gpt-4o", "2026-01-01"),
    ];
    expect(matchPrice(prices, "gpt-4o", null, at)?.id).toBe("new");
    expect(matchPrice(prices, "gpt-4o", null, new Date("2024-06-01"))?.id).toBe("old");
    expect(matchPrice(prices, "gpt-4o", null, new Date("2024-01-01"))).toBeNull();
    // A row becomes effective at its start instant.
    expect(matchPrice(prices, "gpt-4o", null, new Date("2024-10-01T00:00:00Z"))?.id).toBe("new");
  });

  it("filters by provider and prefers the provider-specific row on a tie", () => {
    const prices = [
      row("any", "gpt-4o", "2024-05-13"),
      row("azure", "gpt-4o", "2024-05-13", "azure_openai"),
      row("bedrock", "claude-3-5-sonnet", "2024-06-20", "bedrock"),
    ];
    expect(matchPrice(prices, "gpt-4o", "azure_openai", at)?.id).toBe("azure");
    expect(matchPrice(prices, "gpt-4o", "openai", at)?.id).toBe("any");
    expect(matchPrice(prices, "claude-3-5-sonnet", "anthropic", at)).toBeNull();
    // Without a provider to go on, every row is a candidate.
    expect(matchPrice(prices, "claude-3-5-sonnet", null, at)?.id).toBe("bedrock");
  });

  it("lets the effective date outrank provider and specificity", () => {
    const prices = [row("azure-2024", "gpt-4o.*", "2024-05-13", "azure"), row("any-2025", "gpt-4o", "2025-01-01")];
    expect(matchPrice(prices, "gpt-4o", "azure", at)?.id).toBe("any-2025");
  });

  it("prefers the more specific (longer) pattern on the same date", () => {
    const prices = [row("family", "gpt-4o.*", "2024-07-18"), row("mini", "gpt-4o-mini.*", "2024-07-18")];
    expect(matchPrice(prices, "gpt-4o-mini-2024-07-18", null, at)?.id).toBe("mini");
    expect(matchPrice(prices, "gpt-4o-2024-08-06", null, at)?.id).toBe("family");
  });

  it("skips rows with an invalid pattern", () => {
    const prices = [row("broken", "gpt-4o(", "2025-01-01"), row("ok", "gpt-4o", "2024-01-01")];
    expect(matchPrice(prices, "gpt-4o", null, at)?.id).toBe("ok");
  });
});
