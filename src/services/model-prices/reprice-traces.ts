/**
 * Re-pricing stored runs: an operator's explicit act (a price change applies to calls after its
 * effective date; runs already stored keep their cost until then). All of a range is repriced in
 * ONE transaction, all or nothing, read and written in keyset pages so memory stays bounded by a
 * page whatever the range holds.
 */
import { Decimal } from "decimal.js";
import type { Database } from "../../db/database.js";
import { lockTraceRunsToReprice, type RepriceCandidate, type RepriceScope } from "../../db/sql/lock-trace-runs-to-reprice.js";
import { updateTraceRunCosts, type TraceRunCosts } from "../../db/sql/update-trace-run-costs.js";
import { withTransaction } from "../../db/tx.js";
import type { RepriceOutcome } from "../../domain/model-price.js";
import { runTimeToEpochMs } from "../../tracing/ingest/parse-run-time.js";
import { computeCost } from "../../tracing/pricing/compute-cost.js";
import { matchPrice } from "../../tracing/pricing/match-price.js";
import type { ModelPrice } from "../../tracing/pricing/model-price.js";

// Runs read, priced and written per page: one UPDATE of 2,000 rows carries ~1 MB of JSON.
const REPRICE_PAGE = 2_000;

/** Thrown to roll a dry run back; carries its outcome out of the transaction. */
class DryRunRollback extends Error {
  constructor(readonly outcome: RepriceOutcome) {
    super("dry run rolled back");
  }
}

export async function repriceTraces(
  db: Pick<Database, "dataSource">,
  prices: readonly ModelPrice[],
  scope: RepriceScope & { modelFilter: RegExp | null; dryRun: boolean },
  now: Date,
): Promise<RepriceOutcome> {
  try {
    return await withTransaction(db, async (manager) => {
      const outcome: RepriceOutcome = { repricedRuns: 0, changedRuns: 0, costDelta: "0", dryRun: scope.dryRun };
      let delta = new Decimal(0);
      let after: { startTime: string; id: string } | null = null;
      for (;;) {
        const page = await lockTraceRunsToReprice(manager, scope, after, REPRICE_PAGE);
        const selected = page.filter((run) => !scope.modelFilter || (run.modelName !== null && scope.modelFilter.test(run.modelName)));
        const costs = selected.map((run) => repricedCosts(run, prices));
        const changed = costs.filter((cost, index) => !isSameCosts(cost, selected[index].current));
        await updateTraceRunCosts(manager, changed, now);
        for (const [index, cost] of costs.entries()) {
          delta = delta.plus(cost.totalCost ?? 0).minus(selected[index].current.totalCost ?? 0);
        }
        outcome.repricedRuns += costs.length;
        outcome.changedRuns += changed.length;
        if (page.length < REPRICE_PAGE) break;
        const last = page[page.length - 1];
        after = { startTime: last.startTime, id: last.id };
      }
      outcome.costDelta = delta.isZero() ? "0" : delta.toFixed();
      if (scope.dryRun) throw new DryRunRollback(outcome);
      return outcome;
    });
  } catch (error) {
    if (error instanceof DryRunRollback) return error.outcome;
    throw error;
  }
}

function repricedCosts(run: RepriceCandidate, prices: readonly ModelPrice[]): TraceRunCosts {
  const price = matchPrice(prices, run.modelName, run.provider, new Date(runTimeToEpochMs(run.startTime)));
  const usage = {
    input_tokens: run.promptTokens ?? undefined,
    output_tokens: run.completionTokens ?? undefined,
    total_tokens: run.totalTokens ?? undefined,
    input_token_details: run.promptTokenDetails ?? undefined,
    output_token_details: run.completionTokenDetails ?? undefined,
  };
  const cost = computeCost(usage, price, { serviceTier: run.serviceTier });
  return {
    id: run.id,
    promptCost: cost.promptCost,
    completionCost: cost.completionCost,
    totalCost: cost.totalCost,
    promptCostDetails: Object.keys(cost.promptCostDetails).length ? cost.promptCostDetails : null,
    completionCostDetails: Object.keys(cost.completionCostDetails).length ? cost.completionCostDetails : null,
    costSource: cost.source,
    priceId: cost.priceId,
    priceTier: cost.priceTier,
  };
}

/** Numeric columns read back as canonical text; compared as decimals so "0.10" equals "0.1". */
function isSameCosts(next: TraceRunCosts, stored: TraceRunCosts): boolean {
  const sameMoney = (a: string | null, b: string | null) => (a === null || b === null ? a === b : new Decimal(a).equals(b));
  const sameDetails = (a: Record<string, string> | null, b: Record<string, string> | null) => {
    const left = Object.entries(a ?? {});
    return left.length === Object.keys(b ?? {}).length && left.every(([kind, cost]) => sameMoney(cost, (b ?? {})[kind] ?? null));
  };
  return (
    sameMoney(next.promptCost, stored.promptCost) &&
    sameMoney(next.completionCost, stored.completionCost) &&
    sameMoney(next.totalCost, stored.totalCost) &&
    sameDetails(next.promptCostDetails, stored.promptCostDetails) &&
    sameDetails(next.completionCostDetails, stored.completionCostDetails) &&
    next.costSource === stored.costSource &&
    next.priceId === stored.priceId &&
    next.priceTier === stored.priceTier
  );
}
