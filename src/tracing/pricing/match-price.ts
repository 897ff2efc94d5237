/**
 * Picks the price row for a model at a point in time. Pure: the table and `at` are parameters
 * (STYLE rule 6), so the caller decides whether `at` is the run's start time or now.
 */
import type { ModelPrice } from "./model-price.js";

// Patterns are compiled once per distinct string; a table has a few hundred rows at most.
const compiled = new Map<string, RegExp | null>();

function compilePattern(pattern: string): RegExp | null {
  let regex = compiled.get(pattern);
  if (regex === undefined) {
    try {
      // Anchored so that "gpt-4o" does not also price "gpt-4o-mini".
      regex = new RegExp(`^(?:${pattern})$`, "i");
    } catch {
      // An invalid pattern (the table is editable) must not break pricing for every other row.
      regex = null;
    }
    compiled.set(pattern, regex);
  }
  return regex;
}

function isProviderMatch(price: ModelPrice, provider: string | null): boolean {
  return price.provider === null || provider === null || price.provider.toLowerCase() === provider.toLowerCase();
}

/**
 * Candidates: the pattern matches the whole name, the row's provider is null or the given one,
 * and the row is in effect at `at`. The latest effective date wins (a price change supersedes
 * the old row), then the longest pattern (the more specific one), then a provider-specific row
 * over a provider-agnostic one; the id breaks remaining ties so the choice is deterministic.
 */
export function matchPrice(
  prices: readonly ModelPrice[],
  modelName: string | null,
  provider: string | null,
  at: Date,
): ModelPrice | null {
  if (modelName === null || modelName === "") return null;
  let best: ModelPrice | null = null;
  for (const price of prices) {
    // Written as a negated <= so that an invalid date (NaN) never qualifies.
    if (!(price.effectiveFrom.getTime() <= at.getTime())) continue;
    if (!isProviderMatch(price, provider)) continue;
    if (!compilePattern(price.matchPattern)?.test(modelName)) continue;
    if (best === null || compareSpecificity(price, best, provider) > 0) best = price;
  }
  return best;
}

/** Positive when `a` should be preferred over `b`. */
function compareSpecificity(a: ModelPrice, b: ModelPrice, provider: string | null): number {
  const byDate = a.effectiveFrom.getTime() - b.effectiveFrom.getTime();
  if (byDate !== 0) return byDate;
  const byLength = a.matchPattern.length - b.matchPattern.length;
  if (byLength !== 0) return byLength;
  if (provider !== null) {
    const byProvider = Number(a.provider !== null) - Number(b.provider !== null);
    if (byProvider !== 0) return byProvider;
  }
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
