import { useMemo, useState, type FormEvent } from "react";
import { execute } from "../../api/graphql-client.js";
import { useAction, useQuery } from "../../api/use-query.js";
import { Dialog } from "../../components/dialog.js";
import { ErrorBanner } from "../../components/feedback.js";
import { JsonEditor } from "../../components/json-editor.js";
import { CreateCronDocument, CronFormChoicesDocument, type MultitaskStrategy, type OnRunCompleted } from "../../generated/graphql.js";
import { fieldOfError, isoToZonedWallTime, supportedTimezones, timezoneChoices, zonedWallTimeToIso } from "../../lib/cron-times.js";
import { parseJsonObject, prettyJson } from "../../lib/json-input.js";
import { SchedulePreviewList, useSchedulePreview } from "./schedule-preview.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DEFAULT_SCHEDULE = "0 9 * * 1-5";
const DEFAULT_INPUT = prettyJson({ messages: [{ role: "user", content: "Good morning! What needs my attention today?" }] });

const STRATEGIES: Array<{ value: MultitaskStrategy; label: string }> = [
  { value: "ENQUEUE", label: "Queue behind the active run." },
  { value: "REJECT", label: "Skip this firing." },
  { value: "INTERRUPT", label: "Interrupt the active run." },
  { value: "ROLLBACK", label: "Roll the active run back." },
];

/**
 * Creates a cron: an assistant, stateless or on a thread, a schedule read in a time zone (its next
 * firings previewed as it is typed), the input each run gets, and an optional end time.
 */
export function CronCreateDialog({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }) {
  const browserZone = useMemo(() => Intl.DateTimeFormat().resolvedOptions().timeZone, []);
  const zones = useMemo(() => timezoneChoices(browserZone, supportedTimezones()), [browserZone]);
  const choices = useQuery(CronFormChoicesDocument, {});
  const assistants = choices.data?.assistants.edges.map((edge) => edge.node) ?? [];
  const recentThreads = choices.data?.threads.edges.map((edge) => edge.node) ?? [];

  const [assistantId, setAssistantId] = useState("");
  const [isOnThread, setOnThread] = useState(false);
  const [threadId, setThreadId] = useState("");
  const [strategy, setStrategy] = useState<MultitaskStrategy>("ENQUEUE");
  const [onRunCompleted, setOnRunCompleted] = useState<OnRunCompleted>("DELETE");
  const [schedule, setSchedule] = useState(DEFAULT_SCHEDULE);
  const [timezone, setTimezone] = useState(browserZone);
  const [inputText, setInputText] = useState(DEFAULT_INPUT);
  const [endWallTime, setEndWallTime] = useState("");

  const preview = useSchedulePreview(schedule, timezone);
  const input = useMemo(() => parseJsonObject(inputText), [inputText]);
  const endTimeIso = endWallTime ? zonedWallTimeToIso(endWallTime, timezone) : null;
  const isEndTimePast = endTimeIso !== null && new Date(endTimeIso).getTime() <= Date.now();
  const trimmedThreadId = threadId.trim();
  const isThreadIdValid = !isOnThread || UUID.test(trimmedThreadId);

  const create = useAction(async () => {
    if (!input.ok) return null;
    const result = await execute(CreateCronDocument, {
      input: {
        assistantId,
        schedule: schedule.trim(),
        timezone,
        input: input.value,
        endTime: endTimeIso,
        ...(isOnThread ? { threadId: trimmedThreadId, multitaskStrategy: strategy } : { onRunCompleted }),
      },
    });
    return result.createCron.cron.cronId;
  });
  // The server re-checks everything; what it refuses by field is shown under that field until
  // the field is edited.
  const refused = create.error?.code === "INVALID_INPUT" ? fieldOfError(create.error.message) : null;
  const edited = (setter: (value: string) => void) => (value: string) => {
    create.clearError();
    setter(value);
  };
  const scheduleError = preview.kind === "invalid" && preview.field === "schedule" ? preview.message : refused?.field === "schedule" ? refused.detail : null;
  const timezoneError = preview.kind === "invalid" && preview.field === "timezone" ? preview.message : refused?.field === "timezone" ? refused.detail : null;
  const endTimeError =
    endWallTime && !endTimeIso ? "Not a date and time." : isEndTimePast ? "The end time must be in the future." : refused?.field === "endTime" ? refused.detail : null;

  const isScheduleValid = preview.kind === "valid" && preview.firings.length > 0;
  const isValid = assistantId !== "" && isThreadIdValid && isScheduleValid && input.ok && endTimeError === null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isValid) return;
    if (await create.run()) onCreated();
  };

  return (
    <Dialog title="New cron" onClose={onClose} size="wide">
      <form className="form" onSubmit={submit} noValidate>
        <div className="form-row">
          <div className="field">
            <label htmlFor="cron-assistant">Assistant</label>
            <select id="cron-assistant" value={assistantId} required onChange={(event) => setAssistantId(event.target.value)}>
              <option value="" disabled>
                {choices.isLoading && !choices.data ? "Loading assistants…" : "Choose an assistant"}
              </option>
              {assistants.map((assistant) => (
                <option key={assistant.assistantId} value={assistant.assistantId}>
                  {assistant.name} ({assistant.graphId} v{assistant.version})
                </option>
              ))}
            </select>
          </div>
          <fieldset className="field choice-group">
            <legend>Each firing runs on</legend>
            <div className="choices">
              <label className="checkbox">
                <input type="radio" name="cron-target" checked={!isOnThread} onChange={() => setOnThread(false)} />
                a new thread (stateless)
              </label>
              <label className="checkbox">
                <input type="radio" name="cron-target" checked={isOnThread} onChange={() => setOnThread(true)} />
                an existing thread
              </label>
            </div>
          </fieldset>
        </div>
        {isOnThread && (
          <div className="field">
            <label htmlFor="cron-thread">Thread id</label>
            <input
              id="cron-thread"
              className="code-input"
              list="cron-thread-choices"
              value={threadId}
              placeholder="Paste a thread id or pick one of the recent threads"
              autoComplete="off"
              aria-invalid={trimmedThreadId !== "" && !isThreadIdValid}
              onChange={(event) => setThreadId(event.target.value)}
            />
            <datalist id="cron-thread-choices">
              {recentThreads.map((thread) => (
                <option key={thread.threadId} value={thread.threadId}>
                  {thread.assistant?.name ?? "no assistant"} · {thread.status.toLowerCase()}
                </option>
              ))}
            </datalist>
            {trimmedThreadId !== "" && !isThreadIdValid && <p className="field-error">A thread id is a full UUID.</p>}
          </div>
        )}
        <div className="form-row">
          <div className="field">
            <label htmlFor="cron-schedule">Schedule</label>
            <input
              id="cron-schedule"
              className="code-input"
              value={schedule}
              spellCheck={false}
              autoComplete="off"
              aria-invalid={scheduleError !== null}
              aria-describedby="cron-schedule-feedback"
              onChange={(event) => edited(setSchedule)(event.target.value)}
            />
            <div id="cron-schedule-feedback" aria-live="polite">
              {scheduleError ? (
                <p className="field-error">{scheduleError}</p>
              ) : (
                <p className="field-hint">
                  minute hour day-of-month month day-of-week, e.g. <code>0 9 * * 1-5</code>: weekdays at 9:00
                </p>
              )}
            </div>
          </div>
          <div className="field">
            <label htmlFor="cron-timezone">Time zone</label>
            <select id="cron-timezone" value={timezone} aria-invalid={timezoneError !== null} onChange={(event) => edited(setTimezone)(event.target.value)}>
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone === browserZone ? `${zone} (this browser)` : zone}
                </option>
              ))}
            </select>
            {timezoneError ? <p className="field-error">{timezoneError}</p> : <p className="field-hint">The schedule is read on this zone's clock.</p>}
          </div>
        </div>
        <SchedulePreviewList preview={preview} timezone={timezone} browserZone={browserZone} endTimeIso={endTimeError ? null : endTimeIso} />
        <div className="form-row">
          <div className="field">
            <label htmlFor="cron-end-time">End time (optional)</label>
            <input
              id="cron-end-time"
              type="datetime-local"
              value={endWallTime}
              min={isoToZonedWallTime(new Date().toISOString(), timezone)}
              aria-invalid={endTimeError !== null}
              onChange={(event) => edited(setEndWallTime)(event.target.value)}
            />
            {endTimeError ? <p className="field-error">{endTimeError}</p> : <p className="field-hint">In {timezone}; no firing after it.</p>}
          </div>
          {isOnThread ? (
            <div className="field">
              <label htmlFor="cron-strategy">When the thread has a run already</label>
              <select id="cron-strategy" value={strategy} onChange={(event) => setStrategy(event.target.value as MultitaskStrategy)}>
                {STRATEGIES.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.value.toLowerCase()}
                  </option>
                ))}
              </select>
              {/* The explanation under the select, not in it: a narrow select would cut it off. */}
              <p className="field-hint">{STRATEGIES.find((option) => option.value === strategy)?.label}</p>
            </div>
          ) : (
            <div className="field">
              <label htmlFor="cron-on-completed">When a firing's run ends</label>
              <select id="cron-on-completed" value={onRunCompleted} onChange={(event) => setOnRunCompleted(event.target.value as OnRunCompleted)}>
                <option value="DELETE">delete its thread (and the run with it)</option>
                <option value="KEEP">keep its thread, to read the results later</option>
              </select>
            </div>
          )}
        </div>
        <JsonEditor label="Input" value={inputText} onChange={setInputText} parsed={input} rows={5} hint="Sent as the run's input at every firing." />
        <ErrorBanner error={refused ? null : create.error} />
        <div className="form-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={!isValid || create.isPending}>
            {create.isPending ? "Creating…" : "Create cron"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
