import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, execute } from "../../api/graphql-client.js";
import { subscribe } from "../../api/subscriptions.js";
import { useAction, useQuery } from "../../api/use-query.js";
import { ConfirmDialog } from "../../components/confirm-dialog.js";
import { CopyId } from "../../components/copy-id.js";
import { ErrorBanner, Loading, StatusBadge } from "../../components/feedback.js";
import { JsonView } from "../../components/json-view.js";
import { PageHeader } from "../../components/page-header.js";
import { TimeAgo } from "../../components/time-ago.js";
import { GraphPanel } from "../../components/graph-panel.js";
import { DeleteThreadDocument, RunEventsDocument, StartRunDocument, ThreadDetailDocument } from "../../generated/graphql.js";
import { interruptedActivity } from "../../lib/node-activity.js";
import { readInterrupts } from "../../lib/run-stream.js";
import { messagesOfValues } from "../../lib/chat-messages.js";
import { routePath } from "../../lib/routes.js";
import { Link, navigate } from "../../router.js";
import { ChatTranscript } from "../playground/chat-transcript.js";
import { InterruptPanel } from "../playground/interrupt-panel.js";
import { CheckpointHistory } from "./checkpoint-history.js";
import { ThreadRunsTable } from "./thread-runs-table.js";
import { countOf } from "../../lib/format.js";

/** One thread: its current state, its runs (cancel the active ones) and its checkpoint history. */
export function ThreadDetailPage({ threadId }: { threadId: string }) {
  // While a run is active the page re-reads the thread, so statuses and state follow it live.
  const [isPolling, setPolling] = useState(false);
  const detail = useQuery(ThreadDetailDocument, { threadId }, { pollMs: isPolling ? 2000 : undefined });
  const thread = detail.data?.thread;
  const isBusy = thread?.status === "BUSY";
  useEffect(() => setPolling(isBusy), [isBusy]);
  const [isDeleting, setDeleting] = useState(false);
  const [resumeError, setResumeError] = useState<ApiError | null>(null);
  const refetchDetail = detail.refetch;
  const followed = useRef<Array<() => void>>([]);
  // A run started from a checkpoint: re-read the thread once it has ended (its events complete),
  // and meanwhile as the thread's status changes.
  const followRun = useCallback(
    (runId: string) => {
      refetchDetail();
      const stop = subscribe(RunEventsDocument, { runId }, { next: () => {}, error: () => refetchDetail(), complete: () => refetchDetail() });
      followed.current.push(stop);
    },
    [refetchDetail],
  );
  useEffect(() => () => followed.current.forEach((stop) => stop()), []);
  const remove = useAction(async () => {
    await execute(DeleteThreadDocument, { input: { threadId } });
    navigate(routePath({ page: "threads" }));
  });

  const back = <Link to={routePath({ page: "threads" })}>← Threads</Link>;
  if (!thread) {
    return (
      <div className="page">
        <PageHeader title="Thread" back={back} />
        {detail.isLoading ? <Loading /> : <ErrorBanner error={detail.error} onRetry={detail.refetch} />}
      </div>
    );
  }
  const state = thread.state;
  const messages = messagesOfValues(state?.values);
  const hasInterrupts = Array.isArray(state?.interrupts) && state.interrupts.length > 0;
  // A graph's name stands for its system assistant, for threads no assistant created.
  const assistantId = thread.assistant?.assistantId ?? (typeof thread.metadata.graph_id === "string" ? thread.metadata.graph_id : null);
  const activity = interruptedActivity(state?.tasks ?? []);
  const resume = async (value: unknown) => {
    if (!assistantId) return false;
    try {
      const { createRun } = await execute(StartRunDocument, {
        input: { threadId: thread.threadId, assistantId, command: { resume: value }, streamMode: ["VALUES", "UPDATES", "TASKS"] },
      });
      followRun(createRun.run.runId);
      return true;
    } catch (caught) {
      setResumeError(caught instanceof ApiError ? caught : new ApiError(String(caught), null, 0));
      return false;
    }
  };
  return (
    <div className="page">
      <PageHeader
        back={back}
        title={
          <>
            Thread <code className="title-code">{thread.threadId}</code>
          </>
        }
        subtitle={
          <>
            <StatusBadge status={thread.status} />
            {thread.assistant && (
              <Link to={routePath({ page: "assistant", assistantId: thread.assistant.assistantId })}>{thread.assistant.name}</Link>
            )}
            <span className="muted">
              created <TimeAgo iso={thread.createdAt} />, updated <TimeAgo iso={thread.updatedAt} />
            </span>
          </>
        }
        actions={
          <>
            {thread.assistant && (
              <Link className="button" to={routePath({ page: "playground", assistantId: thread.assistant.assistantId, threadId: thread.threadId })}>
                Continue in test environment
              </Link>
            )}
            <button type="button" className="button button-danger-quiet" onClick={() => setDeleting(true)}>
              Delete
            </button>
          </>
        }
      />
      <ErrorBanner error={detail.error} onRetry={detail.refetch} />
      {thread.error != null && <ErrorBanner error={`The last run failed: ${JSON.stringify(thread.error)}`} />}
      <div className="grid-2">
        <section className="panel" aria-labelledby="state-title">
          <h2 className="panel-title" id="state-title">
            State
          </h2>
          <dl className="facts">
            <dt>Checkpoint</dt>
            <dd>{state?.checkpointId ? <CopyId id={state.checkpointId} showTail /> : "none yet"}</dd>
            <dt>Next</dt>
            <dd>{state?.next.length ? state.next.map((node) => <span key={node} className="chip">{node}</span>) : "— (finished)"}</dd>
            <dt>Tasks</dt>
            <dd>{state?.tasks.length ? state.tasks.map((task) => task.name + (task.error ? ` (error: ${task.error})` : "")).join(", ") : "—"}</dd>
          </dl>
          {hasInterrupts && (
            <>
              <h3 className="subheading">Interrupts</h3>
              {assistantId && thread.status === "INTERRUPTED" ? (
                <InterruptPanel interrupts={readInterrupts(state?.interrupts)} onResume={resume} disabled={isBusy} />
              ) : (
                <JsonView value={state?.interrupts} label="Interrupts" compact />
              )}
              <ErrorBanner error={resumeError} />
            </>
          )}
          <h3 className="subheading">Values</h3>
          <JsonView value={state?.values ?? null} label="State values" />
          <h3 className="subheading">Metadata</h3>
          <JsonView value={thread.metadata} label="Thread metadata" compact />
        </section>
        <section className="panel" aria-labelledby="conversation-title">
          <h2 className="panel-title" id="conversation-title">
            Conversation
          </h2>
          {messages.length > 0 ? <ChatTranscript messages={messages} /> : <p className="muted">The state holds no messages.</p>}
        </section>
      </div>
      {assistantId && (
        <GraphPanel assistantId={assistantId} activity={activity} height={360} threadId={thread.threadId} stepsRefreshKey={state?.checkpointId ?? ""} />
      )}
      <ThreadRunsTable runs={thread.runs.edges.map((edge) => edge.node)} totalCount={thread.runs.totalCount} onChanged={detail.refetch} />
      <CheckpointHistory
        threadId={thread.threadId}
        assistantId={assistantId}
        latestCheckpointId={state?.checkpointId ?? null}
        isBusy={isBusy}
        onContinued={followRun}
      />
      {isDeleting && (
        <ConfirmDialog
          title="Delete this thread?"
          confirmLabel="Delete thread"
          isPending={remove.isPending}
          error={remove.error}
          onConfirm={() => void remove.run()}
          onClose={() => setDeleting(false)}
        >
          <p>
            Thread <code>{thread.threadId}</code> is deleted with its {countOf(thread.runs.totalCount, "run")}, its checkpoints and its crons.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}

