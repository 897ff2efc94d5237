import { useState } from "react";
import { useQuery } from "../../api/use-query.js";
import { EmptyState, ErrorBanner, Loading, StatusBadge } from "../../components/feedback.js";
import { CursorPager, useCursorPages } from "../../components/cursor-pager.js";
import { PageHeader } from "../../components/page-header.js";
import { TimeAgo } from "../../components/time-ago.js";
import { ThreadListDocument, type ThreadStatus } from "../../generated/graphql.js";
import { routePath } from "../../lib/routes.js";
import { Link } from "../../router.js";

const STATUSES: ThreadStatus[] = ["IDLE", "BUSY", "INTERRUPTED", "ERROR"];
const PAGE_SIZE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Threads, most recently active first, by status or by exact id. */
export function ThreadsPage() {
  const [status, setStatus] = useState<ThreadStatus | "">("");
  const [idText, setIdText] = useState("");
  const pages = useCursorPages(PAGE_SIZE);
  const id = idText.trim();
  const isIdValid = id === "" || UUID.test(id);
  const list = useQuery(
    ThreadListDocument,
    { first: PAGE_SIZE, after: pages.after, status: status || null, ids: id && isIdValid ? [id] : null },
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
        {threads && <span className="toolbar-count">{threads.totalCount} threads</span>}
      </div>
      {!isIdValid && <p className="field-error">A thread id is a full UUID, e.g. 1f2e…-…</p>}
      <ErrorBanner error={list.error} onRetry={list.refetch} />
      {!threads && list.isLoading && <Loading />}
      {threads && threads.edges.length === 0 && <EmptyState title="No threads match" />}
      {threads && threads.edges.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th>Thread</th>
              <th>Status</th>
              <th>Assistant</th>
              <th>Updated</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {threads.edges.map(({ node }) => (
              <tr key={node.threadId}>
                <td>
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
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CursorPager pages={pages} page={threads} />
    </div>
  );
}
