import type { CostNumbersFragment, UsageNumbersFragment } from "../../generated/graphql.js";
import { formatTokens, formatUsd } from "../../lib/format.js";

const COST_SOURCES: Record<string, string> = {
  EXPLICIT: "reported by the run",
  PRICE_TABLE: "from the model price table",
  NONE: "not priced",
};

/** Input and output tokens and their cost, split by token kind (cache reads, reasoning …). */
export function UsageBreakdown({ usage, cost }: { usage: UsageNumbersFragment | null; cost: CostNumbersFragment | null }) {
  const inputKinds = detailEntries(usage?.inputTokenDetails);
  const outputKinds = detailEntries(usage?.outputTokenDetails);
  const inputCostKinds = detailEntries(cost?.promptCostDetails);
  const outputCostKinds = detailEntries(cost?.completionCostDetails);
  return (
    <div className="table-scroll">
      <table className="table table-compact usage-table" data-testid="usage-breakdown">
        <thead>
          <tr>
            <th />
            <th className="numeric">Tokens</th>
            <th className="numeric">Cost</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Input</th>
            <td className="numeric">{formatTokens(usage?.inputTokens)}</td>
            <td className="numeric">{formatUsd(cost?.promptCost)}</td>
          </tr>
          {kindRows(inputKinds, inputCostKinds)}
          <tr>
            <th scope="row">Output</th>
            <td className="numeric">{formatTokens(usage?.outputTokens)}</td>
            <td className="numeric">{formatUsd(cost?.completionCost)}</td>
          </tr>
          {kindRows(outputKinds, outputCostKinds)}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td className="numeric">
              {formatTokens(usage?.totalTokens)}
              {usage?.estimated && <span className="muted" title="No counts were reported; estimated with a tokenizer"> (estimated)</span>}
            </td>
            <td className="numeric">
              {formatUsd(cost?.totalCost)}
              {cost?.source && <span className="muted small"> {COST_SOURCES[cost.source]}</span>}
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

function kindRows(tokens: Array<[string, unknown]>, costs: Array<[string, unknown]>) {
  const kinds = [...new Set([...tokens.map(([kind]) => kind), ...costs.map(([kind]) => kind)])];
  return kinds.map((kind) => (
    <tr key={kind} className="usage-kind">
      <th scope="row">{kind.replace(/_/g, " ")}</th>
      <td className="numeric">{formatTokens(numberOf(tokens, kind))}</td>
      <td className="numeric">{formatUsd(stringOf(costs, kind))}</td>
    </tr>
  ));
}

function detailEntries(details: unknown): Array<[string, unknown]> {
  return details && typeof details === "object" && !Array.isArray(details) ? Object.entries(details) : [];
}

function numberOf(entries: Array<[string, unknown]>, kind: string): number | null {
  const value = entries.find(([key]) => key === kind)?.[1];
  return typeof value === "number" ? value : null;
}

function stringOf(entries: Array<[string, unknown]>, kind: string): string | null {
  const value = entries.find(([key]) => key === kind)?.[1];
  return typeof value === "string" || typeof value === "number" ? String(value) : null;
}
