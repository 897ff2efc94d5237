import { useMemo, useState } from "react";
import { useQuery } from "../../api/use-query.js";
import { useDebounced } from "../../components/use-debounced.js";
import { EmptyState, ErrorBanner, Loading } from "../../components/feedback.js";
import { PageHeader } from "../../components/page-header.js";
import { TimeAgo } from "../../components/time-ago.js";
import { ExpensiveTracesDocument, UsageRollupDocument, type UsageGroupBy, type UsageRollupQuery } from "../../generated/graphql.js";
import { countOf, formatTokens, formatUsd } from "../../lib/format.js";
import { routePath } from "../../lib/routes.js";
import { Link } from "../../router.js";

type UsageRow = UsageRollupQuery["usageSummary"][number];
/** The operation's `first` (web/src/graphql/usage.graphql): more groups than this are cut. */
const MAX_GROUPS_SHOWN = 200;
type Range = "24h" | "7d" | "30d" | "90d" | "custom";

const RANGE_MS: Record<Exclude<Range, "custom">, number> = {
  "24h": 86_400_000,
  "7d": 7 * 86_400_000,
  "30d": 30 * 86_400_000,
  "90d": 90 * 86_400_000,
};

// What each grouping is called, and how a row names its group (null: the runs lacked the key).
const GROUPINGS: Record<UsageGroupBy, { label: string; column: string; keyOf: (row: UsageRow) => string | null }> = {
  MODEL: { label: "Model", column: "Model", keyOf: (row) => row.model },
  PROVIDER: { label: "Provider", column: "Provider", keyOf: (row) => row.provider },
  ASSISTANT: { label: "Assistant", column: "Assistant", keyOf: (row) => row.assistantId },
  THREAD: { label: "Thread / session", column: "Thread", keyOf: (row) => row.thread },
  METADATA: { label: "Metadata key…", column: "Value", keyOf: (row) => row.metadataValue },
  DAY: { label: "Day (UTC)", column: "Day", keyOf: (row) => row.day },
};

/** The [from, to) of a preset at `now`, with a minute of slack for runs starting meanwhile. */
function periodOf(range: Range, custom: { from: string; to: string }, now: Date): { from: Date; to: Date } {
  if (range === "custom") {
    return {
      from: custom.from ? new Date(custom.from) : new Date(now.getTime() - RANGE_MS["7d"]),
      to: custom.to ? new Date(custom.to) : new Date(now.getTime() + 60_000),
    };
  }
  return { from: new Date(now.getTime() - RANGE_MS[range]), to: new Date(now.getTime() + 60_000) };
}

/** "model and day": how the groupings read in a heading. */
function groupingsPhrase(groupings: readonly UsageGroupBy[], metadataKey: string): string {
  return groupings.map((grouping) => (grouping === "METADATA" ? metadataKey || "metadata value" : GROUPINGS[grouping].column.toLowerCase())).join(" and ");
}

/**
 * Tokens and cost rolled up per model, provider, assistant, thread, metadata value or day, or per
 * combination of two of them (e.g. per model per day; the server sums them in SQL, most expensive
 * first), and the most expensive traces of the period.
 */
export function UsagePage() {
  const [groupBy, setGroupBy] = useState<UsageGroupBy>("MODEL");
  // A second grouping combined with the first ("" for none): one row per pair that occurs.
  const [thenBy, setThenBy] = useState<UsageGroupBy | "">("");
  const [metadataKey, setMetadataKey] = useState("user_id");
  const [range, setRange] = useState<Range>("7d");
  const [custom, setCustom] = useState({ from: "", to: "" });
  const [refreshedAt, setRefreshedAt] = useState(() => new Date());
  const period = useMemo(() => periodOf(range, custom, refreshedAt), [range, custom, refreshedAt]);
  const key = useDebounced(metadataKey.trim(), 300);
  const groupings: UsageGroupBy[] = thenBy === "" ? [groupBy] : [groupBy, thenBy];
  const isByMetadata = groupings.includes("METADATA");
  const chooseGroupBy = (next: UsageGroupBy) => {
    setGroupBy(next);
    // Grouping twice by one key would only repeat a column.
    if (next === thenBy) setThenBy("");
  };
  const times = { from: period.from.toISOString(), to: period.to.toISOString() };
  const expensive = useQuery(ExpensiveTracesDocument, times);
  return (
    <div className="page usage-page">
      <PageHeader
        title="Usage"
        subtitle="Tokens and cost of every recorded run, rolled up, most expensive first."
        back={<Link to={routePath({ page: "traces" })}>← Traces</Link>}
      />
      <div className="toolbar toolbar-wrap" role="search" aria-label="Usage roll-up">
        <label className="inline-field">
          Group by
          <select value={groupBy} onChange={(event) => chooseGroupBy(event.target.value as UsageGroupBy)}>
            {Object.entries(GROUPINGS).map(([value, { label }]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          Then by
          <select value={thenBy} onChange={(event) => setThenBy(event.target.value as UsageGroupBy | "")}>
            <option value="">(nothing)</option>
            {Object.entries(GROUPINGS)
              .filter(([value]) => value !== groupBy)
              .map(([value, { label }]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
          </select>
        </label>
        {isByMetadata && (
          <input
            className="search-input"
            aria-label="Metadata key"
            placeholder="metadata key, e.g. user_id"
            data-search
            value={metadataKey}
            onChange={(event) => setMetadataKey(event.target.value)}
          />
        )}
        <label className="inline-field">
          Time
          <select value={range} onChange={(event) => setRange(event.target.value as Range)}>
            <option value="24h">Last 24 hours</option>
            <option value="7d">Last 7 days</option>
            <option value="30d">Last 30 days</option>
            <option value="90d">Last 90 days</option>
            <option value="custom">Custom…</option>
          </select>
        </label>
        {range === "custom" && (
          <>
            <input type="datetime-local" aria-label="From" value={custom.from} onChange={(event) => setCustom({ ...custom, from: event.target.value })} />
            <input type="datetime-local" aria-label="To" value={custom.to} onChange={(event) => setCustom({ ...custom, to: event.target.value })} />
          </>
        )}
        <button type="button" className="button button-small" onClick={() => setRefreshedAt(new Date())}>
          Refresh
        </button>
      </div>

      <h2 className="subheading">By {groupingsPhrase(groupings, key)}</h2>
      {isByMetadata && key === "" ? (
        <p className="muted">Name a metadata key to group by its values.</p>
      ) : (
        // One table per grouping: rows of the previous grouping are never shown under the new one's heading.
        <UsageRollupTable
          key={`${groupings.join("+")}:${key}`}
          groupings={groupings}
          metadataKey={isByMetadata ? key : null}
          from={times.from}
          to={times.to}
        />
      )}

      <h2 className="subheading">Most expensive traces</h2>
      <ErrorBanner error={expensive.error} onRetry={expensive.refetch} />
      {expensive.data && expensive.data.expensiveTraces.length === 0 && <p className="muted">No traces started in this period.</p>}
      {expensive.data && expensive.data.expensiveTraces.length > 0 && (
        <ol className="expensive-traces" data-testid="expensive-traces">
          {expensive.data.expensiveTraces.map((trace) => (
            <li key={trace.traceRunId}>
              <Link className="row-link" to={routePath({ page: "trace", traceId: trace.traceId ?? trace.traceRunId, runId: null })}>
                {trace.name ?? "(unnamed)"}
              </Link>
              <span className="expensive-cost">{formatUsd(trace.totals?.cost.totalCost)}</span>
              <span className="muted small">
                <TimeAgo iso={trace.startTime} /> · {countOf(trace.totals?.runCount ?? 1, "run")} · {countOf(trace.totals?.usage.totalTokens ?? 0, "token")}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

interface RollupTableProps {
  groupings: readonly UsageGroupBy[];
  metadataKey: string | null;
  from: string;
  to: string;
}

function UsageRollupTable({ groupings, metadataKey, from, to }: RollupTableProps) {
  const rollup = useQuery(UsageRollupDocument, { from, to, groupBy: [...groupings], metadataKey });
  const rows = rollup.data?.usageSummary ?? [];
  const rowKey = (row: UsageRow) => groupings.map((grouping) => GROUPINGS[grouping].keyOf(row) ?? "(none)").join("\u0000");
  return (
    <>
      <ErrorBanner error={rollup.error} onRetry={rollup.refetch} />
      {!rollup.data && rollup.isLoading && <Loading label="Summing usage…" />}
      {rollup.data && rows.length === 0 && <EmptyState title="No runs in this period">Runs record usage as they call models.</EmptyState>}
      {rows.length > 0 && (
        <div className="table-scroll">
          <table className="table usage-rollup" data-testid="usage-rollup">
            <thead>
              <tr>
                {groupings.map((grouping) => (
                  <th key={grouping}>{grouping === "METADATA" && metadataKey ? metadataKey : GROUPINGS[grouping].column}</th>
                ))}
                <th className="numeric">Runs</th>
                <th className="numeric usage-detail">Input</th>
                <th className="numeric usage-detail">Output</th>
                <th className="numeric">Tokens</th>
                <th className="numeric">Cost</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <UsageRollupRow key={rowKey(row)} row={row} groupings={groupings} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rows.length > 0 && (
        <p className="muted small">
          {countOf(rows.length, "group")}, {countOf(rows.reduce((sum, row) => sum + row.runCount, 0), "run")}
          {rows.length >= MAX_GROUPS_SHOWN ? ` (only the ${MAX_GROUPS_SHOWN} most expensive groups are shown)` : ""}.
        </p>
      )}
    </>
  );
}

function UsageRollupRow({ row, groupings }: { row: UsageRow; groupings: readonly UsageGroupBy[] }) {
  return (
    <tr>
      <th scope="row" className="usage-group">
        <GroupName row={row} grouping={groupings[0]} />
      </th>
      {groupings.slice(1).map((grouping) => (
        <td key={grouping} className="usage-group">
          <GroupName row={row} grouping={grouping} />
        </td>
      ))}
      <td className="numeric">{formatTokens(row.runCount)}</td>
      <td className="numeric usage-detail">{formatTokens(row.inputTokens)}</td>
      <td className="numeric usage-detail">{formatTokens(row.outputTokens)}</td>
      <td className="numeric">{formatTokens(row.totalTokens)}</td>
      <td className="numeric">{formatUsd(row.totalCost)}</td>
    </tr>
  );
}

/** What a row names for one grouping: "(none)" where its runs lacked the key; an assistant links to its page. */
function GroupName({ row, grouping }: { row: UsageRow; grouping: UsageGroupBy }) {
  const name = GROUPINGS[grouping].keyOf(row);
  if (name === null) return <span className="muted">(none)</span>;
  return grouping === "ASSISTANT" ? <Link to={routePath({ page: "assistant", assistantId: name })}>{name}</Link> : <>{name}</>;
}
