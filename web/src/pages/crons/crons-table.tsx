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
            <th>Last firing</th>
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
                <LastFiring firing={cron.lastFiring} />
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

/**
 * The last firing and how its run went: linked to the run's thread while that exists, else to
 * the run's trace (Hangar traces its runs under their own id); an error's message as a tooltip.
 */
function LastFiring({ firing }: { firing: CronRowFragment["lastFiring"] }) {
  if (!firing) return <span className="muted">not yet</span>;
  const message = typeof firing.error?.message === "string" ? firing.error.message : null;
  const badge = <StatusBadge status={firing.status} />;
  const thread = firing.run?.thread?.threadId ?? null;
  const traceId = firing.run?.trace?.traceId ?? (firing.run === null ? firing.runId : null);
  const to = thread ? routePath({ page: "thread", threadId: thread }) : traceId ? routePath({ page: "trace", traceId, runId: null }) : null;
  const title = thread
    ? `Run ${firing.runId} on thread ${thread}`
    : firing.runId
      ? `Trace of run ${firing.runId} (its thread is deleted)`
      : "The thread was busy: this firing queued no run";
  return (
    <div className="stacked" data-testid="last-firing">
      {to ? (
        <Link to={to} title={message ?? title}>
          {badge}
        </Link>
      ) : (
        <span title={message ?? title}>{badge}</span>
      )}
      <span className="muted small">
        <TimeAgo iso={firing.firedAt} />
      </span>
      {message && <span className="small firing-error">{message}</span>}
    </div>
  );
}
