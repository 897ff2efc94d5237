import { useState } from "react";
import { useQuery } from "../../api/use-query.js";
import { CopyId } from "../../components/copy-id.js";
import { EmptyState, ErrorBanner, Loading } from "../../components/feedback.js";
import { CursorPager, useCursorPages } from "../../components/cursor-pager.js";
import { PageHeader } from "../../components/page-header.js";
import { TimeAgo } from "../../components/time-ago.js";
import { useDebounced } from "../../components/use-debounced.js";
import { AssistantListDocument, DeployedGraphsDocument } from "../../generated/graphql.js";
import { routePath } from "../../lib/routes.js";
import { Link, navigate } from "../../router.js";
import { AssistantFormDialog } from "./assistant-form-dialog.js";
import { countOf } from "../../lib/format.js";

const PAGE_SIZE = 50;

/** Every assistant, newest change first, searchable by name and filterable by graph. */
export function AssistantsPage() {
  const [search, setSearch] = useState("");
  const name = useDebounced(search.trim(), 250);
  const [graphId, setGraphId] = useState("");
  const pages = useCursorPages(PAGE_SIZE);
  const [isCreating, setCreating] = useState(false);
  const graphs = useQuery(DeployedGraphsDocument, {});
  const list = useQuery(AssistantListDocument, { name: name || null, graphId: graphId || null, first: PAGE_SIZE, after: pages.after });
  const assistants = list.data?.assistants;
  const graphIds = graphs.data?.assistants.edges.map((edge) => edge.node.graphId) ?? [];

  return (
    <div className="page">
      <PageHeader
        title="Assistants"
        subtitle="Versioned configurations of the deployed graphs."
        actions={
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            New assistant
          </button>
        }
      />
      <div className="toolbar" role="search">
        <input
          type="search"
          className="search-input"
          placeholder="Search by name"
          aria-label="Search assistants by name"
          data-search
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            pages.reset();
          }}
        />
        <kbd className="toolbar-hint" aria-hidden="true">/</kbd>
        <label className="inline-field">
          Graph
          <select
            value={graphId}
            onChange={(event) => {
              setGraphId(event.target.value);
              pages.reset();
            }}
          >
            <option value="">All graphs</option>
            {graphIds.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        {assistants && <span className="toolbar-count">{countOf(assistants.totalCount, "assistant")}</span>}
      </div>
      <ErrorBanner error={list.error} onRetry={list.refetch} />
      {!assistants && list.isLoading && <Loading />}
      {assistants && assistants.edges.length === 0 && (
        <EmptyState title={name || graphId ? "No assistant matches" : "No assistants yet"}>
          {!name && !graphId && "Create one to give a graph its own model, prompt and settings."}
        </EmptyState>
      )}
      {assistants && assistants.edges.length > 0 && (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Graph</th>
                <th className="numeric">Version</th>
                <th>Description</th>
                <th>Updated</th>
                <th>ID</th>
              </tr>
            </thead>
            <tbody>
              {assistants.edges.map(({ node }) => (
                <tr key={node.assistantId}>
                  <td>
                    <Link to={routePath({ page: "assistant", assistantId: node.assistantId })} className="row-link">
                      {node.name}
                    </Link>
                    {node.metadata.created_by === "system" && <span className="tag">system</span>}
                  </td>
                  <td>
                    <span className="chip">{node.graphId}</span>
                  </td>
                  <td className="numeric">v{node.version}</td>
                  <td className="muted truncate">{node.description || "—"}</td>
                  <td>
                    <TimeAgo iso={node.updatedAt} />
                  </td>
                  <td>
                    <CopyId id={node.assistantId} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <CursorPager pages={pages} page={assistants} />
      {isCreating && (
        <AssistantFormDialog
          mode={{ kind: "create" }}
          onClose={() => setCreating(false)}
          onSaved={(assistantId) => navigate(routePath({ page: "assistant", assistantId }))}
        />
      )}
    </div>
  );
}
