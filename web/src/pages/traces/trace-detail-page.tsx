import { useQuery } from "../../api/use-query.js";
import { ErrorBanner, Loading, StatusBadge } from "../../components/feedback.js";
import { PageHeader } from "../../components/page-header.js";
import { TimeAgo } from "../../components/time-ago.js";
import { TraceTreeDocument } from "../../generated/graphql.js";
import { formatLatency, formatTokens, formatUsd, countOf } from "../../lib/format.js";
import { routePath } from "../../lib/routes.js";
import { layoutTraceTree, traceSpan } from "../../lib/trace-tree.js";
import { Link, navigate } from "../../router.js";
import { ModelCallsTable } from "./model-calls-table.js";
import { TraceRunPanel } from "./trace-run-panel.js";
import { TraceWaterfall } from "./trace-waterfall.js";

/** One trace: its run tree as a waterfall, per-call tokens and costs, and the selected run's messages. */
export function TraceDetailPage({ traceId, selectedRunId }: { traceId: string; selectedRunId: string | null }) {
  const tree = useQuery(TraceTreeDocument, { traceId });
  const trace = tree.data?.trace;
  const back = <Link to={routePath({ page: "traces" })}>← Traces</Link>;
  if (!trace) {
    return (
      <div className="page">
        <PageHeader title="Trace" back={back} />
        {tree.isLoading ? <Loading /> : <ErrorBanner error={tree.error} onRetry={tree.refetch} />}
      </div>
    );
  }
  const runs = trace.runs.edges.map((edge) => edge.node);
  const rows = layoutTraceTree(runs);
  const root = rows.find((row) => row.depth === 0)?.run ?? runs[0];
  const modelCalls = runs.filter((run) => run.runType === "llm");
  // The first model call is what people open a trace for; the root when there is none.
  const selected = runs.find((run) => run.traceRunId === selectedRunId) ?? modelCalls[0] ?? root;
  const select = (runId: string) => navigate(routePath({ page: "trace", traceId, runId }), { replace: true });
  const { totals } = trace;

  return (
    <div className="page">
      <PageHeader
        back={back}
        title={root?.name ?? "Trace"}
        subtitle={
          <>
            {root && <StatusBadge status={root.status} />}
            {root && <TimeAgo iso={root.startTime} />}
            {root?.threadId && <Link to={routePath({ page: "thread", threadId: root.threadId })}>thread</Link>}
          </>
        }
      />
      <dl className="stat-row" data-testid="trace-totals">
        <div className="stat">
          <dt>Latency</dt>
          <dd>{formatLatency(root?.latencyMs)}</dd>
        </div>
        <div className="stat">
          <dt>First token</dt>
          <dd data-testid="trace-first-token">{formatLatency(trace.timeToFirstTokenMs)}</dd>
        </div>
        <div className="stat">
          <dt>Runs</dt>
          <dd>{totals.runCount}</dd>
        </div>
        <div className="stat">
          <dt>Tokens</dt>
          <dd data-testid="trace-total-tokens">{formatTokens(totals.usage.totalTokens)}</dd>
          <dd className="stat-detail">
            {formatTokens(totals.usage.inputTokens)} in · {formatTokens(totals.usage.outputTokens)} out
          </dd>
        </div>
        <div className="stat">
          <dt>Cost</dt>
          <dd data-testid="trace-total-cost">{formatUsd(totals.cost.totalCost)}</dd>
          <dd className="stat-detail">
            {formatUsd(totals.cost.promptCost)} in · {formatUsd(totals.cost.completionCost)} out
          </dd>
        </div>
      </dl>
      <ErrorBanner error={tree.error} onRetry={tree.refetch} />
      <div className="trace-layout">
        <TraceWaterfall rows={rows} spanMs={traceSpan(runs).spanMs} selectedId={selected?.traceRunId ?? null} onSelect={select} />
        {selected && <TraceRunPanel key={selected.traceRunId} traceRunId={selected.traceRunId} />}
      </div>
      {trace.runs.pageInfo.hasNextPage && (
        <p className="muted small">Showing the first {runs.length} of {countOf(trace.runs.totalCount, "run")} of this trace.</p>
      )}
      <ModelCallsTable calls={modelCalls} totals={totals} onSelect={select} />
    </div>
  );
}
