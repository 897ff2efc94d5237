import { useEffect, useMemo, useState } from "react";
import { useDebounced } from "../../components/use-debounced.js";
import { ApiError, execute } from "../../api/graphql-client.js";
import { useQuery } from "../../api/use-query.js";
import { EmptyState, ErrorBanner, Loading, StatusBadge } from "../../components/feedback.js";
import { PageHeader } from "../../components/page-header.js";
import { TimeAgo } from "../../components/time-ago.js";
import { TraceListDocument, UsageByDayAndModelDocument, type TraceRowFragment } from "../../generated/graphql.js";
import { formatLatency, formatTokens, formatUsd, countOf } from "../../lib/format.js";
import { routePath } from "../../lib/routes.js";
import { Link } from "../../router.js";
import { CostChart } from "./cost-chart.js";
import { DEFAULT_FILTERS, listVariables, TraceFilters, timeWindow, type TraceFilterValues } from "./trace-filters.js";

type TypedFilter = "nameContains" | "tags" | "metadata" | "feedbackKey" | "scoreMin" | "scoreMax";

// Kept for the page's lifetime, so coming back from a trace finds the list as it was left.
let rememberedFilters = DEFAULT_FILTERS;

/** Recorded traces with their latency, tokens and cost, and the cost chart for the same period. */
export function TracesPage() {
  const [filters, setFilters] = useState(rememberedFilters);
  const [refreshedAt, setRefreshedAt] = useState(() => new Date());
  const period = useMemo(() => timeWindow(filters, refreshedAt), [filters, refreshedAt]);
  // Typed searches go to the server: ask once typing pauses, not on every keystroke.
  const { nameContains, tags, metadata, feedbackKey, scoreMin, scoreMax } = filters;
  const typed: Pick<TraceFilterValues, TypedFilter> = JSON.parse(
    useDebounced(JSON.stringify({ nameContains, tags, metadata, feedbackKey, scoreMin, scoreMax }), 250),
  );
  const variables = listVariables({ ...filters, ...typed }, period);
  const list = useQuery(TraceListDocument, variables);
  const usage = useQuery(UsageByDayAndModelDocument, { from: period.from.toISOString(), to: period.to.toISOString() });
  const [morePages, setMorePages] = useState<{ rows: TraceRowFragment[]; cursor: string | null; error: ApiError | null }>({
    rows: [],
    cursor: null,
    error: null,
  });
  const variablesKey = JSON.stringify(variables);
  useEffect(() => setMorePages({ rows: [], cursor: null, error: null }), [variablesKey]);
  rememberedFilters = filters;

  const firstPage = list.data?.traces;
  const rows = [...(firstPage?.edges.map((edge) => edge.node) ?? []), ...morePages.rows];
  const hasLoadedMore = morePages.rows.length > 0;
  const nextCursor = hasLoadedMore ? morePages.cursor : (firstPage?.pageInfo.endCursor ?? null);
  const hasMore = hasLoadedMore ? morePages.cursor !== null : Boolean(firstPage?.pageInfo.hasNextPage);
  const models = [...new Set((usage.data?.usageSummary ?? []).map((row) => row.model).filter((model): model is string => Boolean(model)))];

  const loadMore = async () => {
    try {
      const page = await execute(TraceListDocument, { ...variables, after: nextCursor });
      setMorePages((previous) => ({
        rows: [...previous.rows, ...page.traces.edges.map((edge) => edge.node)],
        cursor: page.traces.pageInfo.hasNextPage ? page.traces.pageInfo.endCursor ?? null : null,
        error: null,
      }));
    } catch (caught) {
      setMorePages((previous) => ({ ...previous, error: caught instanceof ApiError ? caught : new ApiError(String(caught), null, 0) }));
    }
  };

  return (
    <div className="page">
      <PageHeader title="Traces" subtitle="Graph runs and model calls, with latency, tokens and cost." />
      <ErrorBanner error={usage.error} onRetry={usage.refetch} />
      {usage.data ? <CostChart rows={usage.data.usageSummary} from={period.from} to={period.to} /> : usage.isLoading && <Loading label="Loading costs…" />}
      <TraceFilters value={filters} models={models} onChange={setFilters} onRefresh={() => setRefreshedAt(new Date())} />
      <ErrorBanner error={list.error ?? morePages.error} onRetry={list.refetch} />
      {!firstPage && list.isLoading && <Loading />}
      {firstPage && rows.length === 0 && <EmptyState title="No traces match">Runs record traces as they execute.</EmptyState>}
      {rows.length > 0 && (
        <div className="table-scroll">
          <table className="table" data-testid="trace-table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Type</th>
                <th>Status</th>
                <th>Started</th>
                <th className="numeric">Latency</th>
                <th className="numeric" title="Time to first token">First token</th>
                <th className="numeric">Tokens</th>
                <th className="numeric">Cost</th>
                <th>Model</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.traceRunId}>
                  <td>
                    <Link
                      className="row-link"
                      to={routePath({
                        page: "trace",
                        traceId: row.traceId ?? row.traceRunId,
                        runId: row.traceId && row.traceId !== row.traceRunId ? row.traceRunId : null,
                      })}
                    >
                      {row.name ?? "(unnamed)"}
                    </Link>
                    {row.totals && <span className="muted small"> · {countOf(row.totals.runCount, "run")}</span>}
                  </td>
                  <td>
                    <span className="chip">{row.runType ?? "—"}</span>
                  </td>
                  <td>
                    <StatusBadge status={row.status} />
                  </td>
                  <td>
                    <TimeAgo iso={row.startTime} />
                  </td>
                  <td className="numeric">{formatLatency(row.latencyMs)}</td>
                  <td className="numeric" data-testid="trace-first-token">{formatLatency(row.timeToFirstTokenMs)}</td>
                  <td className="numeric">{formatTokens(row.totals?.usage.totalTokens ?? row.usage?.totalTokens)}</td>
                  <td className="numeric">{formatUsd(row.totals?.cost.totalCost ?? row.cost?.totalCost)}</td>
                  <td className="muted">{row.modelName ?? (row.totals?.modelNames.length ? row.totals.modelNames.join(", ") : "—")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {firstPage && (
        <p className="muted small">
          {countOf(firstPage.totalCount, "trace")} {typed.nameContains.trim() ? `whose name contains “${typed.nameContains.trim()}”` : "in total"}.
        </p>
      )}
      {hasMore && (
        <button type="button" className="button load-more" onClick={() => void loadMore()}>
          Load more
        </button>
      )}
    </div>
  );
}
