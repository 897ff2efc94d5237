import type { TraceTreeQuery } from "../../generated/graphql.js";
import { formatLatency, formatTokens, formatUsd } from "../../lib/format.js";
import type { TraceTreeRow } from "../../lib/trace-tree.js";

type TraceRunNode = TraceTreeQuery["trace"]["runs"]["edges"][number]["node"];

/** The run tree, indented by depth, each run with a bar placed on the trace's timeline. */
export function TraceWaterfall({ rows, selectedId, onSelect }: { rows: TraceTreeRow<TraceRunNode>[]; selectedId: string | null; onSelect: (id: string) => void }) {
  return (
    <ol className="waterfall" aria-label="Runs of this trace">
      <li className="waterfall-row waterfall-head" aria-hidden="true">
        <span>Run</span>
        <span>Timeline</span>
        <span className="waterfall-figure">Latency</span>
        <span className="waterfall-figure">Tokens</span>
        <span className="waterfall-figure">Cost</span>
      </li>
      {rows.map(({ run, depth, offset, width }) => (
        <li key={run.traceRunId}>
          <button
            type="button"
            className={`waterfall-row${run.status === "error" ? " waterfall-error" : ""}`}
            aria-current={run.traceRunId === selectedId ? "true" : undefined}
            onClick={() => onSelect(run.traceRunId)}
          >
            <span className="waterfall-name" style={{ paddingLeft: `${depth * 14}px` }}>
              <span className={`run-type run-type-${run.runType ?? "other"}`}>{run.runType ?? "run"}</span>
              {run.name ?? "(unnamed)"}
            </span>
            <span className="waterfall-bar-track" aria-hidden="true">
              <span className="waterfall-bar" style={{ left: `${offset * 100}%`, width: `${width * 100}%` }} />
            </span>
            <span className="waterfall-figure">{formatLatency(run.latencyMs)}</span>
            <span className="waterfall-figure">{run.usage ? formatTokens(run.usage.totalTokens) : ""}</span>
            <span className="waterfall-figure">{run.cost ? formatUsd(run.cost.totalCost) : ""}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}
