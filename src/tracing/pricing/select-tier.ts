/**
 * Which tier of a price row prices a call (pure). The rule: among the tiers whose condition the
 * call meets, the most specific one wins, i.e. the one whose condition implies every other met
 * condition. `findTierOverlap` refuses tier lists where that winner might not exist, so the
 * choice never depends on the order tiers are listed in.
 */
import type { PriceTier, TierCondition } from "./model-price.js";

/** What a call offers to the conditions. */
export interface CallFacts {
  inputTokens: number | null;
  serviceTier: string | null;
}

export function meetsCondition(condition: TierCondition, call: CallFacts): boolean {
  if (condition.serviceTier !== null && condition.serviceTier !== call.serviceTier) return false;
  if (condition.inputTokensAbove !== null && !(call.inputTokens !== null && call.inputTokens > condition.inputTokensAbove)) {
    return false;
  }
  return true;
}

/** True when every call meeting `a` also meets `b`. */
function implies(a: TierCondition, b: TierCondition): boolean {
  const serviceTier = b.serviceTier === null || a.serviceTier === b.serviceTier;
  const threshold = b.inputTokensAbove === null || (a.inputTokensAbove !== null && a.inputTokensAbove >= b.inputTokensAbove);
  return serviceTier && threshold;
}

function isSameCondition(a: TierCondition, b: TierCondition): boolean {
  return a.serviceTier === b.serviceTier && a.inputTokensAbove === b.inputTokensAbove;
}

/** The tier pricing this call, or null when none applies (the row's own prices then). */
export function selectTier(tiers: readonly PriceTier[], call: CallFacts): PriceTier | null {
  let best: PriceTier | null = null;
  for (const tier of tiers) {
    if (!meetsCondition(tier.condition, call)) continue;
    if (best === null || implies(tier.condition, best.condition)) best = tier;
  }
  return best;
}

/**
 * Why a tier list is ambiguous, or null. Two tiers conflict when one call can meet both and
 * neither implies the other, unless a third tier covers exactly their overlap (e.g. "flex" and
 * "above 200k" need a "flex above 200k" tier). With every such overlap covered, the met tiers
 * of any call are closed under overlap, so one of them implies all others.
 */
export function findTierOverlap(tiers: readonly PriceTier[]): string | null {
  for (let i = 0; i < tiers.length; i++) {
    for (let j = i + 1; j < tiers.length; j++) {
      const a = tiers[i].condition;
      const b = tiers[j].condition;
      const names = `tiers '${tiers[i].name}' and '${tiers[j].name}'`;
      if (isSameCondition(a, b)) return `${names} have the same condition`;
      if (a.serviceTier !== null && b.serviceTier !== null && a.serviceTier !== b.serviceTier) continue;
      if (implies(a, b) || implies(b, a)) continue;
      const overlap: TierCondition = {
        serviceTier: a.serviceTier ?? b.serviceTier,
        inputTokensAbove:
          a.inputTokensAbove === null || b.inputTokensAbove === null
            ? (a.inputTokensAbove ?? b.inputTokensAbove)
            : Math.max(a.inputTokensAbove, b.inputTokensAbove),
      };
      if (!tiers.some((tier) => isSameCondition(tier.condition, overlap))) {
        return `${names} overlap: a call can meet both; add a tier for ${describeCondition(overlap)} or narrow one`;
      }
    }
  }
  return null;
}

export function describeCondition(condition: TierCondition): string {
  const parts: string[] = [];
  if (condition.serviceTier !== null) parts.push(`service tier '${condition.serviceTier}'`);
  if (condition.inputTokensAbove !== null) parts.push(`more than ${condition.inputTokensAbove} input tokens`);
  return parts.join(" with ") || "every call";
}
