import { execute } from "../../api/graphql-client.js";
import { useAction } from "../../api/use-query.js";
import { CopyId } from "../../components/copy-id.js";
import { ErrorBanner, StatusBadge } from "../../components/feedback.js";
import { TimeAgo } from "../../components/time-ago.js";
import { CancelRunDocument, type RunRowFragment } from "../../generated/graphql.js";
import { formatTokens, formatUsd } from "../../lib/format.js";
import { routePath } from "../../lib/routes.js";
import { Link } from "../../router.js";

/** A thread's runs, newest first, with cancel for the active ones and a link to each trace. */
export function ThreadRunsTable({ runs, totalCount, onChanged }: { runs: RunRowFragment[]; totalCount: number; onChanged: () => void }) {
  const cancel = useAction(async (runId: string) => {
    await execute(CancelRunDocument, { input: { runId, action: "INTERRUPT", wait: true } });
    onChanged();
  });
  return (
    <section className="panel" aria-labelledby="runs-title">
      <h2 className="panel-title" id="runs-title">
        Runs <span className="muted">({totalCount})</span>
      </h2>
      <ErrorBanner error={cancel.error} />
      {runs.length === 0 ? (
        <p className="muted">No runs yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="table table-compact">
            <thead>
              <tr>
                <th>Run</th>
                <th>Status</th>
                <th>Assistant</th>
                <th>Strategy</th>
                <th>Created</th>
                <th className="numeric">Tokens</th>
                <th className="numeric">Cost</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => {
                const isActive = run.status === "PENDING" || run.status === "RUNNING";
                return (
                  <tr key={run.runId}>
                    <td>
                      <CopyId id={run.runId} />
                    </td>
                    <td>
                      <StatusBadge status={run.status} />
                      {run.error != null && <span className="text-bad small" title={JSON.stringify(run.error)}> failed</span>}
                    </td>
                    <td>{run.assistant?.name ?? <span className="muted">deleted</span>}</td>
                    <td className="muted">{run.multitaskStrategy.toLowerCase()}</td>
                    <td>
                      <TimeAgo iso={run.createdAt} />
                    </td>
                    <td className="numeric">{formatTokens(run.usage.totalTokens)}</td>
                    <td className="numeric">{formatUsd(run.cost.totalCost)}</td>
                    <td className="row-actions">
                      {isActive && (
                        <button type="button" className="button button-small" disabled={cancel.isPending} onClick={() => void cancel.run(run.runId)}>
                          Cancel
                        </button>
                      )}
                      {!isActive && (
                        <Link className="button button-small" to={routePath({ page: "trace", traceId: run.runId, runId: null })}>
                          Trace
                        </Link>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
