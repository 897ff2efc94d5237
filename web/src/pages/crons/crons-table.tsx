import { StatusBadge } from "../../components/feedback.js";
import { TimeAgo, TimeUntil } from "../../components/time-ago.js";
import type { CronRowFragment } from "../../generated/graphql.js";
import { formatZonedDateTime } from "../../lib/cron-times.js";
import { formatDateTime } from "../../lib/format.js";
import { routePath } from "../../lib/routes.js";
import { Link } from "../../router.js";

interface CronsTableProps {
  crons: CronRowFragment[];
  /** Crons whose enabled switch is being saved. */
  lockedIds: ReadonlyMap<string, unknown>;
  onToggle: (cron: CronRowFragment) => void;
  onDelete: (cron: CronRowFragment) => void;
}

/**
 * One row per cron: when it fires (times on its own zone's clock), where, and how its last firing
 * went. The zone sits under the schedule it qualifies, so the row fits a laptop-wide page.
 */
export function CronsTable({ crons, lockedIds, onToggle, onDelete }: CronsTableProps) {
  // Scrolls sideways on a narrow window rather than pushing the page wider.
  return (
    <div className="table-scroll">
      <table className="table table-compact crons-table" data-testid="cron-table">
        <thead>
          <tr>
            <th>Schedule, zone</th>
            <th>Assistant</th>
            <th>Thread</th>
            <th>Enabled</th>
            <th>Next run</th>
            <th>Last run</th>
            <th>Ends</th>
            <th>Created</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {crons.map((cron) => (
            <tr key={cron.cronId} data-cron-id={cron.cronId}>
              <td>
                <div className="stacked" title={`Cron ${cron.cronId}`}>
                  <code className="cron-schedule">{cron.schedule}</code>
                  <span className="muted small" data-testid="cron-timezone">
                    {cron.timezone}
                  </span>
                </div>
              </td>
              <td>
                {cron.assistant ? (
                  <Link to={routePath({ page: "assistant", assistantId: cron.assistantId })}>{cron.assistant.name}</Link>
                ) : (
                  <span className="muted">deleted</span>
                )}
              </td>
              <td>
                {cron.threadId ? (
                  <Link to={routePath({ page: "thread", threadId: cron.threadId })} title={cron.threadId}>
                    <code>{cron.threadId.slice(0, 8)}</code>
                  </Link>
                ) : (
                  <div className="stacked" title={`A new thread per firing, ${cron.onRunCompleted === "KEEP" ? "kept" : "deleted"} after its run`}>
                    <span className="tag tag-inline">stateless</span>
                    {cron.onRunCompleted === "KEEP" && <span className="muted small">keeps threads</span>}
                  </div>
                )}
              </td>
              <td>
                <label className="switch" title={cron.enabled ? "Fires on schedule; click to pause" : "Paused; click to resume"}>
                  <input
                    type="checkbox"
                    role="switch"
                    checked={cron.enabled}
                    disabled={lockedIds.has(cron.cronId)}
                    aria-label={`Enabled: ${cron.schedule}`}
                    onChange={() => onToggle(cron)}
                  />
                  {cron.enabled ? "on" : "off"}
                </label>
              </td>
              <td>
                <NextRun cron={cron} />
              </td>
              <td>
                <LastRun run={cron.lastRun} />
              </td>
              <td className="muted">
                {cron.endTime ? <time dateTime={cron.endTime}>{formatZonedDateTime(cron.endTime, cron.timezone, { withWeekday: false })}</time> : "never"}
              </td>
              <td>
                <TimeAgo iso={cron.createdAt} />
              </td>
              <td className="cron-actions">
                <button type="button" className="button button-small button-danger-quiet" onClick={() => onDelete(cron)} aria-label={`Delete cron ${cron.schedule}`}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function NextRun({ cron }: { cron: CronRowFragment }) {
  if (!cron.nextRunAt) {
    const reason = !cron.enabled ? "paused" : cron.endTime && new Date(cron.endTime) <= new Date() ? "ended" : "none";
    return <span className="muted">{reason}</span>;
  }
  return (
    <div className="stacked" title={`${formatDateTime(cron.nextRunAt)} in this browser's time zone`}>
      <time dateTime={cron.nextRunAt}>{formatZonedDateTime(cron.nextRunAt, cron.timezone)}</time>
      <span className="muted small">
        <TimeUntil iso={cron.nextRunAt} />
      </span>
    </div>
  );
}

/** The last firing's run: linked to its thread while that exists, else to its trace. */
function LastRun({ run }: { run: CronRowFragment["lastRun"] }) {
  if (!run) return <span className="muted">not yet</span>;
  const badge = <StatusBadge status={run.status} />;
  const to = run.thread
    ? routePath({ page: "thread", threadId: run.thread.threadId })
    : run.trace?.traceId
      ? routePath({ page: "trace", traceId: run.trace.traceId, runId: null })
      : null;
  return (
    <div className="stacked">
      {to ? (
        <Link to={to} title={run.thread ? `Run ${run.runId} on thread ${run.threadId}` : `Trace of run ${run.runId} (its thread is deleted)`}>
          {badge}
        </Link>
      ) : (
        badge
      )}
      <span className="muted small">
        <TimeAgo iso={run.createdAt} />
      </span>
    </div>
  );
}
