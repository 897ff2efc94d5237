import { ApiError } from "../../api/graphql-client.js";
import { useQuery } from "../../api/use-query.js";
import { ErrorBanner } from "../../components/feedback.js";
import { TimeUntil } from "../../components/time-ago.js";
import { useDebounced } from "../../components/use-debounced.js";
import { CronSchedulePreviewDocument } from "../../generated/graphql.js";
import { fieldOfError, formatZonedDateTime } from "../../lib/cron-times.js";

export const PREVIEW_COUNT = 5;
// Long enough that typing "0 9 * * 1-5" sends one request, not eleven.
const PREVIEW_DEBOUNCE_MS = 300;

export type SchedulePreview =
  | { kind: "empty" }
  | { kind: "checking"; firings: string[] | null }
  | { kind: "valid"; firings: string[] }
  | { kind: "invalid"; field: "schedule" | "timezone"; message: string }
  | { kind: "failed"; error: ApiError };

/**
 * The next firings of a schedule as the server computes them (the scheduler's own maths, so the
 * preview cannot disagree with what will run), asked for once typing pauses. A refused schedule
 * or zone comes back as INVALID_INPUT naming the field, which the form shows under that field.
 */
export function useSchedulePreview(schedule: string, timezone: string): SchedulePreview {
  const wanted = JSON.stringify([schedule.trim(), timezone]);
  const settled = useDebounced(wanted, PREVIEW_DEBOUNCE_MS);
  const [settledSchedule, settledTimezone] = JSON.parse(settled) as [string, string];
  const preview = useQuery(
    CronSchedulePreviewDocument,
    { schedule: settledSchedule, timezone: settledTimezone, count: PREVIEW_COUNT },
    { skip: settledSchedule === "" },
  );
  if (schedule.trim() === "") return { kind: "empty" };
  // useQuery keeps the last answer on screen while the next one loads: show it, but as pending.
  if (settled !== wanted || preview.isLoading) return { kind: "checking", firings: preview.data?.cronSchedulePreview ?? null };
  if (preview.error) {
    const refused = preview.error.code === "INVALID_INPUT" ? fieldOfError(preview.error.message) : null;
    if (refused && refused.field !== "endTime") return { kind: "invalid", field: refused.field, message: refused.detail };
    return { kind: "failed", error: preview.error };
  }
  return { kind: "valid", firings: preview.data?.cronSchedulePreview ?? [] };
}

interface SchedulePreviewListProps {
  preview: SchedulePreview;
  timezone: string;
  browserZone: string;
  /** Firings after it will not happen; they are shown struck through. */
  endTimeIso: string | null;
}

/** The next firings, each on the cron's zone's wall clock, with the browser's time beside it. */
export function SchedulePreviewList({ preview, timezone, browserZone, endTimeIso }: SchedulePreviewListProps) {
  const firings = preview.kind === "valid" ? preview.firings : preview.kind === "checking" ? preview.firings : null;
  const endTime = endTimeIso ? new Date(endTimeIso).getTime() : null;
  return (
    <section className="schedule-preview" aria-labelledby="schedule-preview-title" aria-busy={preview.kind === "checking"} data-testid="schedule-preview">
      <h3 className="subheading" id="schedule-preview-title">
        Next {PREVIEW_COUNT} firings in {timezone}
      </h3>
      {preview.kind === "empty" && <p className="muted small">Enter a schedule to see when it fires.</p>}
      {preview.kind === "invalid" && <p className="muted small">Fix the {preview.field} to see when it fires.</p>}
      {preview.kind === "failed" && <ErrorBanner error={preview.error} />}
      {firings && firings.length === 0 && preview.kind === "valid" && <p className="field-error">This schedule never fires.</p>}
      {firings && firings.length > 0 && (
        <ol className={`firing-list${preview.kind === "checking" ? " is-stale" : ""}`}>
          {firings.map((iso) => {
            const isAfterEnd = endTime !== null && new Date(iso).getTime() > endTime;
            return (
              <li key={iso} className={isAfterEnd ? "firing-after-end" : undefined}>
                <time dateTime={iso} className="firing-time">
                  {formatZonedDateTime(iso, timezone)}
                </time>
                <span className="muted">
                  <TimeUntil iso={iso} />
                  {timezone !== browserZone && <> · {formatZonedDateTime(iso, browserZone)} here</>}
                  {isAfterEnd && " · after the end time: skipped"}
                </span>
              </li>
            );
          })}
        </ol>
      )}
      {preview.kind === "valid" && firings && firings.length > 0 && firings.length < PREVIEW_COUNT && (
        <p className="muted small">It fires no more after these.</p>
      )}
    </section>
  );
}
