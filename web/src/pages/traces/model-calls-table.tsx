import type { TraceTreeQuery } from "../../generated/graphql.js";
import { formatLatency, formatTokens, formatUsd, countOf } from "../../lib/format.js";

type TraceData = TraceTreeQuery["trace"];
type TraceRunNode = TraceData["runs"]["edges"][number]["node"];

/** Tokens and cost of every model call of the trace, with the trace's totals underneath. */
export function ModelCallsTable({ calls, totals, onSelect }: { calls: TraceRunNode[]; totals: TraceData["totals"]; onSelect: (id: string) => void }) {
  return (
    <section className="panel" aria-labelledby="model-calls-title">
      <h2 className="panel-title" id="model-calls-title">
        Model calls <span className="muted">({calls.length})</span>
      </h2>
      {calls.length === 0 ? (
        <p className="muted">This trace made no model calls.</p>
      ) : (
        <div className="table-scroll">
          <table className="table table-compact" data-testid="model-calls">
            <thead>
              <tr>
                <th>Call</th>
                <th>Model</th>
                <th className="numeric">Latency</th>
                <th className="numeric">Input tokens</th>
                <th className="numeric">Output tokens</th>
                <th className="numeric">Input cost</th>
                <th className="numeric">Output cost</th>
                <th className="numeric">Cost</th>
              </tr>
            </thead>
            <tbody>
              {calls.map((call) => (
                <tr key={call.traceRunId}>
                  <td>
                    <button type="button" className="link-button" onClick={() => onSelect(call.traceRunId)}>
                      {call.name ?? "(unnamed)"}
                    </button>
                  </td>
                  <td>{call.modelName ?? "—"}</td>
                  <td className="numeric">{formatLatency(call.latencyMs)}</td>
                  <td className="numeric">
                    {formatTokens(call.usage?.inputTokens)}
                    {call.usage?.estimated && <span className="muted" title="Estimated with a tokenizer"> ≈</span>}
                  </td>
                  <td className="numeric">{formatTokens(call.usage?.outputTokens)}</td>
                  <td className="numeric">{formatUsd(call.cost?.promptCost)}</td>
                  <td className="numeric">{formatUsd(call.cost?.completionCost)}</td>
                  <td className="numeric">{formatUsd(call.cost?.totalCost)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={3}>
                  Trace total ({countOf(totals.runCount, "run")})
                </th>
                <td className="numeric">{formatTokens(totals.usage.inputTokens)}</td>
                <td className="numeric">{formatTokens(totals.usage.outputTokens)}</td>
                <td className="numeric">{formatUsd(totals.cost.promptCost)}</td>
                <td className="numeric">{formatUsd(totals.cost.completionCost)}</td>
                <td className="numeric">{formatUsd(totals.cost.totalCost)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
}
