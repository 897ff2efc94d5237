import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useQuery } from "../../api/use-query.js";
import { ErrorBanner, Loading, StatusBadge } from "../../components/feedback.js";
import { GraphPanel } from "../../components/graph-panel.js";
import { nextBreakpoints, type Breakpoints } from "../../components/graph-view.js";
import { JsonEditor } from "../../components/json-editor.js";
import { PageHeader } from "../../components/page-header.js";
import { TimeAgo } from "../../components/time-ago.js";
import { useThreadHistory } from "../../components/use-thread-history.js";
import { AssistantThreadsDocument, PlaygroundAssistantsDocument, PlaygroundContextSchemaDocument, type MultitaskStrategy } from "../../generated/graphql.js";
import { shortId } from "../../lib/format.js";
import { parseJsonObject } from "../../lib/json-input.js";
import { chatBranchView } from "../../lib/chat-branches.js";
import { checkAgainstSchema, type JsonSchema } from "../../lib/schema-check.js";
import { routePath } from "../../lib/routes.js";
import { Link, navigate } from "../../router.js";
import { ChatComposer } from "./chat-composer.js";
import { ChatTranscript, type ChatBranching } from "./chat-transcript.js";
import { InterruptPanel } from "./interrupt-panel.js";
import { RunStatusBar } from "./run-status-bar.js";
import { useChatSession, type RunOptions } from "./use-chat-session.js";

const STRATEGIES: Array<{ value: MultitaskStrategy; label: string }> = [
  { value: "REJECT", label: "Reject the new message" },
  { value: "INTERRUPT", label: "Interrupt the active run, keep its steps" },
  { value: "ROLLBACK", label: "Roll the active run back, then run" },
  { value: "ENQUEUE", label: "Queue behind the active run" },
];

/** Test environment: pick an assistant and a thread, chat, watch runs stream, answer interrupts. */
export function PlaygroundPage({ assistantId, threadId }: { assistantId: string | null; threadId: string | null }) {
  const assistants = useQuery(PlaygroundAssistantsDocument, {});
  const assistantList = assistants.data?.assistants.edges.map((edge) => edge.node) ?? [];
  // Like the API, a graph's name stands for that graph's system assistant (?assistant=agent).
  const assistant =
    assistantList.find((item) => item.assistantId === assistantId) ??
    assistantList.find((item) => item.graphId === assistantId && item.metadata.created_by === "system") ??
    (assistantId ? null : (assistantList[0] ?? null));
  const selectedAssistantId = assistant?.assistantId ?? null;
  const threads = useQuery(AssistantThreadsDocument, { assistantId: selectedAssistantId ?? "" }, { skip: !selectedAssistantId });
  const session = useChatSession(selectedAssistantId, threadId);

  const [strategy, setStrategy] = useState<MultitaskStrategy>("REJECT");
  const [contextText, setContextText] = useState("");
  const [isRawInput, setRawInput] = useState(false);
  const runContext = useMemo(() => parseJsonObject(contextText), [contextText]);
  const contextSchema = useQuery(PlaygroundContextSchemaDocument, { assistantId: selectedAssistantId ?? "" }, { skip: !selectedAssistantId });
  const contextIssues = useMemo(() => {
    const target = contextSchema.data?.assistant;
    const schema = (target?.graphSchemas.contextSchema ?? null) as JsonSchema | null;
    if (!runContext.ok || !schema || !target || Object.keys(runContext.value).length === 0) return [];
    // The run's context is laid over the assistant's key by key: the result is what the graph checks.
    return checkAgainstSchema({ ...target.context, ...runContext.value }, schema);
  }, [contextSchema.data, runContext]);
  const hasContextSchema = Boolean(contextSchema.data?.assistant.graphSchemas.contextSchema);
  const [breakpoints, setBreakpoints] = useState<Breakpoints>(NO_BREAKPOINTS);
  const toggleBreakpoint = useCallback((id: string) => setBreakpoints((previous) => nextBreakpoints(previous, id)), []);
  const options: RunOptions = {
    strategy,
    context: runContext.ok && Object.keys(runContext.value).length > 0 ? runContext.value : null,
    interruptBefore: [...breakpoints.before],
    interruptAfter: [...breakpoints.after],
  };
  const latestRun = session.runs.at(-1) ?? null;
  // The stored status trails a run that just started; what this page is following is newer.
  const statusOf = (threadId: string, stored: string) => (threadId === session.threadId && session.isBusy ? "BUSY" : stored);
  const settledRuns = session.runs.filter((run) => run.isSettled).length;
  const refetchThreads = threads.refetch;
  const pickerState = `${session.threadId}:${settledRuns}`;
  const shownPickerState = useRef(pickerState);
  // A first message creates a thread, and runs change thread statuses: keep the picker current.
  useEffect(() => {
    if (shownPickerState.current === pickerState) return;
    shownPickerState.current = pickerState;
    refetchThreads();
  }, [pickerState, refetchThreads]);
  const threadList = threads.data?.assistant.threads.edges.map((edge) => edge.node) ?? [];
  // The chat's branches come from the thread's newest checkpoints (a page; older forks are not shown).
  const history = useThreadHistory(session.threadId, null, `chat:${settledRuns}`, CHAT_HISTORY_PAGE);
  // The shown branch ends at the picked checkpoint, else at the thread's latest (which a history
  // read before the last run ended does not hold yet: no versions until it is read again).
  const shownTip = session.view?.checkpointId ?? session.thread?.state?.checkpointId ?? null;
  const branches = useMemo(() => chatBranchView(history.states, shownTip), [history.states, shownTip]);
  const newestCheckpoint = session.thread?.state?.checkpointId ?? null;
  const branching: ChatBranching | null =
    session.threadId && !session.isBusy && !isRawInput
      ? {
          siblings: branches.siblings,
          onSwitch: (tipId) => {
            const tip = history.states.find((state) => state.checkpointId === tipId);
            session.showBranch(!tip || tipId === newestCheckpoint ? null : { checkpointId: tipId, values: tip.values });
          },
          canEdit: (position) => branches.editFrom.has(position),
          onEdit: async (position, text) => {
            const from = branches.editFrom.get(position);
            if (!from?.checkpointId || !runContext.ok || contextIssues.length > 0) return false;
            return session.editMessage({ checkpointId: from.checkpointId, values: from.values }, text, options);
          },
        }
      : null;
  const goTo = (nextAssistant: string | null, nextThread: string | null) =>
    navigate(routePath({ page: "playground", assistantId: nextAssistant, threadId: nextThread }));

  const send = async (text: string) => {
    if (!runContext.ok || contextIssues.length > 0) return false;
    if (!isRawInput) return session.sendMessage(text, options);
    const input = parseJsonObject(text);
    if (!input.ok) return false;
    return session.sendInput(input.value, options);
  };

  return (
    <div className="page page-playground">
      <PageHeader
        title="Test environment"
        subtitle={
          session.threadId ? (
            <>
              thread <Link to={routePath({ page: "thread", threadId: session.threadId })}>{shortId(session.threadId)}</Link>
              {session.thread && <StatusBadge status={statusOf(session.threadId, session.thread.status)} />}
            </>
          ) : (
            "A new thread starts with your first message."
          )
        }
      />
      <div className="playground">
        <aside className="playground-setup" aria-label="Run setup">
          <div className="field">
            <label htmlFor="playground-assistant">Assistant</label>
            {assistants.isLoading && !assistants.data ? (
              <Loading />
            ) : (
              <select id="playground-assistant" value={selectedAssistantId ?? ""} onChange={(event) => goTo(event.target.value, null)}>
                {assistantList.map((item) => (
                  <option key={item.assistantId} value={item.assistantId}>
                    {item.name} ({item.graphId} v{item.version})
                  </option>
                ))}
              </select>
            )}
          </div>
          <div className="field">
            <div className="field-label-row">
              <span className="label">Threads</span>
              <button type="button" className="link-button" onClick={() => goTo(selectedAssistantId, null)}>
                New thread
              </button>
            </div>
            <ul className="thread-picker">
              {threadList.length === 0 && <li className="muted">No threads yet.</li>}
              {threadList.map((thread) => (
                <li key={thread.threadId}>
                  <button
                    type="button"
                    className="thread-pick"
                    aria-current={thread.threadId === session.threadId ? "true" : undefined}
                    onClick={() => goTo(selectedAssistantId, thread.threadId)}
                  >
                    <code>{shortId(thread.threadId)}</code>
                    <StatusBadge status={statusOf(thread.threadId, thread.status)} />
                    <TimeAgo iso={thread.updatedAt} />
                  </button>
                </li>
              ))}
            </ul>
          </div>
          <div className={`field${session.isBusy ? " field-highlight" : ""}`}>
            <label htmlFor="playground-strategy">When a run is already active</label>
            <select id="playground-strategy" value={strategy} onChange={(event) => setStrategy(event.target.value as MultitaskStrategy)}>
              {STRATEGIES.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.value.toLowerCase()}
                </option>
              ))}
            </select>
            {/* The explanation under the select, not in it: the narrow setup column would cut it off. */}
            <p className="field-hint">{STRATEGIES.find((option) => option.value === strategy)?.label}.</p>
          </div>
          <details className="advanced">
            <summary>Run options</summary>
            <JsonEditor
              label="Context for these runs"
              value={contextText}
              onChange={setContextText}
              parsed={runContext}
              issues={contextIssues}
              rows={4}
              hint={`Overlaid key by key on the assistant's context${hasContextSchema ? ", checked against the graph's context schema" : ""}.`}
            />
            <label className="checkbox">
              <input type="checkbox" checked={isRawInput} onChange={(event) => setRawInput(event.target.checked)} />
              Send the message box as raw JSON input
            </label>
          </details>
          {assistant && (
            <Link className="muted small" to={routePath({ page: "assistant", assistantId: assistant.assistantId })}>
              Assistant settings →
            </Link>
          )}
        </aside>
        <section className="chat" aria-label="Chat">
          <ChatTranscript messages={session.messages} isWorking={session.isBusy && session.interrupts.length === 0} branching={branching} />
          {session.interrupts.length > 0 && (
            <InterruptPanel interrupts={session.interrupts} onResume={(value) => session.resume(value, options)} disabled={!assistant} />
          )}
          {session.pausedBefore.length > 0 && (
            <div className="banner banner-warning breakpoint-panel" role="status" data-testid="breakpoint-paused">
              <span>
                Stopped at a breakpoint; next: <code>{session.pausedBefore.join(", ")}</code>. Edit the state from the{" "}
                {session.threadId && <Link to={routePath({ page: "thread", threadId: session.threadId })}>thread's checkpoints</Link>}, then
                continue.
              </span>
              <span className="form-actions">
                <button type="button" className="button" onClick={() => void session.step(options)}>
                  Step
                </button>
                <button type="button" className="button button-primary" onClick={() => void session.continueRun(options)}>
                  Continue
                </button>
              </span>
            </div>
          )}
          <ErrorBanner error={session.error} />
          {latestRun && <RunStatusBar run={latestRun} onCancel={(runId) => void session.cancel(runId)} />}
          <ChatComposer
            disabled={!assistant}
            placeholder={isRawInput ? '{"messages": [{"role": "user", "content": "hi"}]}' : "Message (Enter to send, Shift+Enter for a new line)"}
            sendLabel={session.isBusy ? `Send (${strategy.toLowerCase()})` : "Send"}
            onSend={send}
            validate={(text) => contextProblem(runContext.ok, contextIssues.length) ?? (isRawInput ? rawInputProblem(text) : null)}
          />
        </section>
        <aside className="playground-graph" aria-label="Graph of the run">
          {selectedAssistantId && (
            <GraphPanel
              assistantId={selectedAssistantId}
              activity={session.activity}
              height={460}
              breakpoints={breakpoints}
              onBreakpoint={toggleBreakpoint}
              threadId={session.threadId}
              // A node starting means the step before it was checkpointed; a node finishing wrote its
              // result; a settled run may have written several checkpoints.
              stepsRefreshKey={`${session.activity.active.join(",")}:${session.activity.finished.length}:${settledRuns}`}
            />
          )}
        </aside>
      </div>
    </div>
  );
}

/** Why the message box's text is not a raw JSON input (null when it is). */
function rawInputProblem(text: string): string | null {
  const parsed = parseJsonObject(text);
  if (parsed.ok) return null;
  return parsed.line ? `${parsed.message} (line ${parsed.line}, column ${parsed.column})` : parsed.message;
}

/** Why no run can start with the run options' context (null when it can): named at the message box too. */
function contextProblem(isJson: boolean, issueCount: number): string | null {
  if (!isJson) return "The run context (Run options) is not a JSON object.";
  return issueCount > 0 ? "The run context (Run options) does not match the graph's context schema." : null;
}

const NO_BREAKPOINTS: Breakpoints = { before: new Set(), after: new Set() };
// Checkpoints read for the chat's branches: about 15 turns of a one-node chat graph.
const CHAT_HISTORY_PAGE = 50;
