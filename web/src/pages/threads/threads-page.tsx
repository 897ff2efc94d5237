import { useState } from "react";
import { useQuery } from "../../api/use-query.js";
import { EmptyState, ErrorBanner, Loading, StatusBadge } from "../../components/feedback.js";
import { CursorPager, useCursorPages } from "../../components/cursor-pager.js";
import { PageHeader } from "../../components/page-header.js";
import { TimeAgo } from "../../components/time-ago.js";
import { ThreadListDocument, type ThreadStatus } from "../../generated/graphql.js";
import { useDebounced } from "../../components/use-debounced.js";
import { parseMetadataFilter } from "../../lib/metadata-filter.js";
import { routePath } from "../../lib/routes.js";
import { Link } from "../../router.js";
import { countOf } from "../../lib/format.js";

const STATUSES: ThreadStatus[] = ["IDLE", "BUSY", "INTERRUPTED", "ERROR"];
const PAGE_SIZE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Threads, most recently active first, by status, by metadata (containment) or by exact id. */
export function ThreadsPage() {
  const [status, setStatus] = useState<ThreadStatus | "">("");
  const [idText, setIdText] = useState("");
  const [metadataText, setMetadataText] = useState("");
  const pages = useCursorPages(PAGE_SIZE);
  const id = idText.trim();
  const isIdValid = id === "" || UUID.test(id);
  const metadata = parseMetadataFilter(useDebounced(metadataText, 250));
  const list = useQuery(
    ThreadListDocument,
    {
      first: PAGE_SIZE,
      after: pages.after,
      status: status || null,
      ids: id && isIdValid ? [id] : null,
      metadataAnyOf: metadata.ok ? metadata.alternatives : null,
    },
    { pollMs: 5000 },
  );
  const threads = list.data?.threads;

  return (
    <div className="page">
      <PageHeader title="Threads" subtitle="Conversations and the state their runs accumulate." />
      <div className="toolbar" role="search">
        <input
          type="search"
          className="search-input"
          placeholder="Thread id (paste a full UUID)"
          aria-label="Find a thread by id"
          aria-invalid={!isIdValid}
          data-search
          value={idText}
          onChange={(event) => {
            setIdText(event.target.value);
            pages.reset();
          }}
        />
        <kbd className="toolbar-hint" aria-hidden="true">/</kbd>
        <input
          type="search"
          className="search-input"
          placeholder='Metadata: owner=qa-team or {"owner": "qa-team"}'
          aria-label="Find threads by metadata"
          aria-invalid={!metadata.ok}
          value={metadataText}
          onChange={(event) => {
            setMetadataText(event.target.value);
            pages.reset();
          }}
        />
        <label className="inline-field">
          Status
          <select
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as ThreadStatus | "");
              pages.reset();
            }}
          >
            <option value="">Any</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {value.toLowerCase()}
              </option>
            ))}
          </select>
        </label>
        {threads && <span className="toolbar-count">{countOf(threads.totalCount, "thread")}</span>}
      </div>
      {!isIdValid && <p className="field-error">A thread id is a full UUID, e.g. 1f2e…-…</p>}
      {!metadata.ok && <p className="field-error">{metadata.message}</p>}
      <ErrorBanner error={list.error} onRetry={list.refetch} />
      {!threads && list.isLoading && <Loading />}
      {threads && threads.edges.length === 0 && <EmptyState title="No threads match" />}
      {threads && threads.edges.length > 0 && (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th>Thread</th>
                <th>Status</th>
                <th>Assistant</th>
                <th>Updated</th>
                <th>Created</th>
                <th>Metadata</th>
              </tr>
            </thead>
            <tbody>
              {threads.edges.map(({ node }) => (
                <tr key={node.threadId}>
                  <td className="id-cell">
                    <Link to={routePath({ page: "thread", threadId: node.threadId })} className="row-link">
                      <code>{node.threadId}</code>
                    </Link>
                  </td>
                  <td>
                    <StatusBadge status={node.status} />
                  </td>
                  <td>
                    {node.assistant ? (
                      <Link to={routePath({ page: "assistant", assistantId: node.assistant.assistantId })}>{node.assistant.name}</Link>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                  <td>
                    <TimeAgo iso={node.updatedAt} />
                  </td>
                  <td>
                    <TimeAgo iso={node.createdAt} />
                  </td>
                  <td className="metadata-cell">
                    <code>{metadataSummary(node.metadata)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <CursorPager pages={pages} page={threads} />
    </div>
  );
}

/** The metadata as `key=value` pairs (the ids the console sets are left out), for the list. */
function metadataSummary(metadata: Record<string, unknown>): string {
  const shown = Object.entries(metadata).filter(([key]) => key !== "assistant_id" && key !== "graph_id");
  const text = shown.map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`).join(" ");
  return text.length > 80 ? `${text.slice(0, 77)}…` : text || "—";
}
