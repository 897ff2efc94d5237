import { StatusBadge } from "../../components/feedback.js";
import { formatTokens, formatUsd } from "../../lib/format.js";
import { routePath } from "../../lib/routes.js";
import { Link } from "../../router.js";
import type { SessionRun } from "./use-chat-session.js";

/** The latest run: live phase or final status, what streamed, tokens, cost, and where to look closer. */
export function RunStatusBar({ run, onCancel }: { run: SessionRun; onCancel: (runId: string) => void }) {
  const { stream, outcome } = run;
  const status = outcome?.status ?? (stream.phase === "ended" ? "ended" : stream.phase);
  const isLive = !run.isSettled && stream.phase !== "ended";
  return (
    <div className="run-status" data-testid="run-status" data-status={status.toLowerCase()}>
      <StatusBadge status={status} />
      <span className="muted">
        run <code>{stream.runId.slice(0, 8)}</code>
      </span>
      {stream.tokenChunks > 0 && <span data-testid="streamed-chunks">{stream.tokenChunks} chunks streamed</span>}
      {stream.finishedNodes.length > 0 && <span className="muted">nodes: {stream.finishedNodes.join(" → ")}</span>}
      {stream.interrupts.length > 0 && <span className="badge badge-attention">waiting at interrupt()</span>}
      {outcome && (
        <>
          <span>{formatTokens(outcome.usage.totalTokens)} tokens</span>
          <span>{formatUsd(outcome.cost.totalCost)}</span>
        </>
      )}
      {stream.error && (
        <span className="text-bad">
          {stream.error.error}: {stream.error.message}
        </span>
      )}
      <span className="run-status-actions">
        {isLive && (
          <button type="button" className="button button-small" onClick={() => onCancel(stream.runId)}>
            Cancel run
          </button>
        )}
        {run.isSettled && outcome && (
          <Link to={routePath({ page: "trace", traceId: stream.runId, runId: null })} className="button button-small">
            View trace
          </Link>
        )}
      </span>
    </div>
  );
}
