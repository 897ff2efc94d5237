import { useCallback, useEffect, useRef, useState } from "react";
import { useConnectionState } from "../../api/connection.js";
import { ApiError, execute } from "../../api/graphql-client.js";
import { subscribe } from "../../api/subscriptions.js";
import {
  CancelRunDocument,
  CreateThreadDocument,
  PlaygroundThreadDocument,
  PlaygroundThreadEventsDocument,
  RunOutcomeDocument,
  StartRunDocument,
  type CreateRunInput,
  type MultitaskStrategy,
  type PlaygroundThreadQuery,
  type RunOutcomeQuery,
} from "../../generated/graphql.js";
import type { ChatMessage } from "../../lib/chat-messages.js";
import { interruptedActivity, NO_ACTIVITY, type NodeActivity } from "../../lib/node-activity.js";
import { routePath } from "../../lib/routes.js";
import {
  applyThreadEvent,
  conversationOf,
  endRunStream,
  isRunEnd,
  readInterrupts,
  startRunStream,
  type InterruptInfo,
  type RunStreamState,
  type ThreadEventLike,
} from "../../lib/run-stream.js";
import { navigate } from "../../router.js";

// Full states after each step, the tokens of the step in progress, which node finished, and
// when each node's task starts and ends (the graph view's live highlight).
const STREAM_MODES: CreateRunInput["streamMode"] = ["VALUES", "UPDATES", "MESSAGES_TUPLE", "TASKS"];
// The protocol channels those modes become, and each run's start and end.
const CHANNELS = ["values", "updates", "messages", "tasks", "input", "lifecycle"];
// Events of runs not (yet) followed are kept this long per thread: a run's first events can
// arrive before the mutation that started it answers.
const MAX_UNCLAIMED_EVENTS = 5_000;

type ThreadEvent = ThreadEventLike & { eventId: string; runId?: string | null };

type ThreadSnapshot = PlaygroundThreadQuery["thread"];

export interface SessionRun {
  stream: RunStreamState;
  /** Ended, and the thread was re-read afterwards: its stored values now hold what it did. */
  isSettled: boolean;
  outcome: RunOutcomeQuery["run"] | null;
}

/** A checkpoint the chat shows instead of the thread's latest: another branch, or where an edit re-runs from. */
export interface ChatView {
  checkpointId: string;
  values: unknown;
}

export interface RunOptions {
  strategy: MultitaskStrategy;
  /** Overlaid on the assistant's context for this run only. */
  context: Record<string, unknown> | null;
  /** Breakpoints: nodes the run stops before / after (LangGraph's interrupt_before / interrupt_after). */
  interruptBefore: string[];
  interruptAfter: string[];
}

/**
 * A chat on one thread: starts runs (creating the thread on the first message) and follows them
 * through the thread's event stream (threadEvents over graphql-ws: the protocol v2 channels, one
 * subscription per thread, each event naming its run), then re-reads the thread when a run ends.
 * Runs already active when the thread is opened are followed too (the stream starts at the
 * thread's latest run, so it replays what that run streamed so far).
 */
export function useChatSession(assistantId: string | null, threadIdFromUrl: string | null) {
  const [threadId, setThreadId] = useState(threadIdFromUrl);
  const threadIdRef = useRef(threadIdFromUrl);
  const [thread, setThread] = useState<ThreadSnapshot | null>(null);
  const [runs, setRuns] = useState<SessionRun[]>([]);
  const [pendingText, setPendingText] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [view, setView] = useState<ChatView | null>(null);
  const stream = useRef(emptyThreadStream());

  const updateRun = (runId: string, change: (run: SessionRun) => SessionRun) =>
    setRuns((previous) => previous.map((run) => (run.stream.runId === runId ? change(run) : run)));

  const loadThread = useCallback(async (id: string | null): Promise<ThreadSnapshot | null> => {
    if (!id) return null;
    try {
      const { thread: loaded } = await execute(PlaygroundThreadDocument, { threadId: id });
      if (threadIdRef.current === id) setThread(loaded);
      return loaded;
    } catch (caught) {
      setError(asApiError(caught));
      return null;
    }
  }, []);

  const finish = useCallback(
    async (runId: string) => {
      updateRun(runId, (run) => ({ ...run, stream: endRunStream(run.stream) }));
      const [outcome] = await Promise.all([
        execute(RunOutcomeDocument, { runId }).catch(() => null), // rollback deletes the run
        loadThread(threadIdRef.current),
      ]);
      updateRun(runId, (run) => ({ ...run, isSettled: true, outcome: outcome?.run ?? null }));
      setPendingText(null);
      // The run wrote the thread's newest checkpoint: the chat follows its branch.
      setView(null);
    },
    [loadThread],
  );

  /** One event of a followed run: folded into its stream; its end settles it. */
  const apply = useCallback(
    (runId: string, event: ThreadEvent) => {
      const current = stream.current;
      if (current.ended.has(runId)) return;
      updateRun(runId, (run) => ({ ...run, stream: applyThreadEvent(run.stream, event) }));
      if (isRunEnd(event)) {
        current.ended.add(runId);
        void finish(runId);
      }
    },
    [finish],
  );

  const onEvent = useCallback(
    (event: ThreadEvent) => {
      const current = stream.current;
      // A reconnected subscription replays the latest run from its start: what was seen is skipped.
      if (!event.runId || current.seen.has(event.eventId)) return;
      current.seen.add(event.eventId);
      if (current.followed.has(event.runId)) return apply(event.runId, event);
      if (current.unclaimedCount >= MAX_UNCLAIMED_EVENTS) return;
      current.unclaimedCount++;
      current.unclaimed.set(event.runId, [...(current.unclaimed.get(event.runId) ?? []), event]);
    },
    [apply],
  );

  /** The open thread's event stream, subscribed once per thread. */
  const openThreadStream = useCallback(
    (id: string) => {
      if (stream.current.threadId === id) return;
      // Another thread's stream is dropped with what it saw; after an error the same thread's
      // seen and ended runs stay (the stream opened again replays its latest run).
      if (stream.current.threadId !== null) {
        stream.current.unsubscribe?.();
        stream.current = emptyThreadStream();
      }
      const current = stream.current;
      current.threadId = id;
      current.unsubscribe = subscribe(
        PlaygroundThreadEventsDocument,
        { threadId: id, channels: CHANNELS },
        {
          next: (data) => onEvent(data.threadEvents),
          error: (caught) => {
            setError(caught);
            // The stream is gone: its runs end here (re-read as they are), a next run subscribes anew.
            if (stream.current !== current) return;
            current.threadId = null;
            for (const runId of current.followed) {
              if (current.ended.has(runId)) continue;
              current.ended.add(runId);
              void finish(runId);
            }
          },
          complete: () => {},
        },
      );
    },
    [onEvent, finish],
  );

  const follow = useCallback(
    (runId: string) => {
      if (threadIdRef.current) openThreadStream(threadIdRef.current);
      const current = stream.current;
      if (current.followed.has(runId)) return;
      current.followed.add(runId);
      setRuns((previous) =>
        previous.some((run) => run.stream.runId === runId)
          ? previous
          : [...previous, { stream: startRunStream(runId), isSettled: false, outcome: null }],
      );
      const early = current.unclaimed.get(runId) ?? [];
      current.unclaimed.delete(runId);
      current.unclaimedCount -= early.length;
      for (const event of early) apply(runId, event);
    },
    [apply, openThreadStream],
  );

  // Another thread was picked (or "new thread"): drop this one's streams and state.
  useEffect(() => {
    if (threadIdFromUrl === threadIdRef.current) return;
    stream.current.unsubscribe?.();
    stream.current = emptyThreadStream();
    threadIdRef.current = threadIdFromUrl;
    setThreadId(threadIdFromUrl);
    setThread(null);
    setRuns([]);
    setPendingText(null);
    setError(null);
    setView(null);
  }, [threadIdFromUrl]);

  useEffect(() => {
    let isCurrent = true;
    void loadThread(threadId).then((loaded) => {
      if (!isCurrent || !loaded) return;
      for (const { node } of loaded.runs.edges) {
        if (node.status === "PENDING" || node.status === "RUNNING") follow(node.runId);
      }
    });
    return () => {
      isCurrent = false;
    };
  }, [threadId, loadThread, follow]);

  // Back after an outage: the "stream interrupted" error is over (the next run subscribes anew).
  const { reconnects } = useConnectionState();
  useEffect(() => {
    if (reconnects > 0) setError((previous) => (previous?.code === "NETWORK" ? null : previous));
  }, [reconnects]);

  useEffect(
    () => () => {
      stream.current.unsubscribe?.();
      stream.current = emptyThreadStream();
    },
    [],
  );

  /** Starts a run; on a shown branch (`view`) it continues that branch, forking the thread. */
  const startRun = async (
    input: Pick<CreateRunInput, "input" | "command">,
    options: RunOptions,
    fromCheckpoint: string | null = view?.checkpointId ?? null,
  ): Promise<boolean> => {
    if (!assistantId) return false;
    setError(null);
    try {
      let id = threadIdRef.current;
      if (!id) {
        const created = await execute(CreateThreadDocument, { input: { metadata: { assistant_id: assistantId } } });
        id = created.createThread.thread.threadId;
        threadIdRef.current = id;
        setThreadId(id);
        navigate(routePath({ page: "playground", assistantId, threadId: id }), { replace: true });
      }
      const { createRun } = await execute(StartRunDocument, {
        input: {
          ...input,
          threadId: id,
          assistantId,
          checkpointId: fromCheckpoint,
          streamMode: STREAM_MODES,
          multitaskStrategy: options.strategy,
          context: options.context,
          interruptBefore: options.interruptBefore.length > 0 ? options.interruptBefore : null,
          interruptAfter: options.interruptAfter.length > 0 ? options.interruptAfter : null,
        },
      });
      follow(createRun.run.runId);
      return true;
    } catch (caught) {
      setError(asApiError(caught));
      setPendingText(null);
      return false;
    }
  };

  const sendMessage = (text: string, options: RunOptions) => {
    setPendingText(text);
    return startRun({ input: { messages: [{ role: "user", content: text }] } }, options);
  };
  const sendInput = (input: unknown, options: RunOptions) => startRun({ input }, options);
  /**
   * An earlier message, edited: the graph runs again from the checkpoint before that message
   * (`from`) with the new text, which starts a branch; the old one stays in the history.
   */
  const editMessage = (from: ChatView, text: string, options: RunOptions) => {
    setView(from);
    setPendingText(text);
    return startRun({ input: { messages: [{ role: "user", content: text }] } }, options, from.checkpointId);
  };
  const resume = (value: unknown, options: RunOptions) => startRun({ command: { resume: value } }, options);
  /** From a breakpoint: on to the end (or the next breakpoint), or one node at a time. */
  const continueRun = (options: RunOptions) => startRun({ input: null }, options);
  const step = (options: RunOptions) => startRun({ input: null }, { ...options, interruptBefore: ["*"] });
  const cancel = async (runId: string) => {
    try {
      await execute(CancelRunDocument, { input: { runId, action: "INTERRUPT" } });
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  // The run whose stream is on screen: a live one (the oldest still running, for enqueued runs),
  // or one that ended but whose thread re-read has not arrived yet.
  const unsettled = runs.filter((run) => !run.isSettled);
  const shownRun = unsettled.find((run) => run.stream.phase !== "pending") ?? unsettled[0] ?? null;
  const messages: ChatMessage[] = conversationOf(view ? view.values : (thread?.values ?? null), shownRun?.stream ?? null, pendingText);
  const interrupts: InterruptInfo[] =
    shownRun && shownRun.stream.interrupts.length > 0
      ? shownRun.stream.interrupts
      : unsettled.length === 0 && thread?.status === "INTERRUPTED"
        ? readInterrupts(thread.state?.interrupts)
        : [];
  // Stopped at a breakpoint: interrupted with nodes left to run but nothing asked of the user.
  const pausedBefore =
    unsettled.length === 0 && thread?.status === "INTERRUPTED" && interrupts.length === 0 ? (thread.state?.next ?? []) : [];

  return {
    threadId,
    thread,
    runs,
    messages,
    interrupts,
    pausedBefore,
    activity: activityOf(shownRun?.stream ?? runs.at(-1)?.stream ?? null, thread),
    isBusy: unsettled.length > 0 || thread?.status === "BUSY",
    error,
    clearError: () => setError(null),
    sendMessage,
    sendInput,
    editMessage,
    view,
    /** Shows another branch (null: the thread's latest); the next message continues it. */
    showBranch: setView,
    resume,
    continueRun,
    step,
    cancel,
  };
}

/**
 * What the graph view highlights: the followed run's nodes (running, done, waiting), or for a
 * thread opened while interrupted, the interrupted tasks its stored state names.
 */
function activityOf(stream: RunStreamState | null, thread: ThreadSnapshot | null): NodeActivity {
  if (stream && (stream.phase !== "ended" || Object.keys(stream.interruptedNodes).length > 0 || stream.finishedNodes.length > 0)) {
    return { active: stream.activeNodes, finished: stream.finishedNodes, interrupted: stream.interruptedNodes };
  }
  return thread?.status === "INTERRUPTED" ? interruptedActivity(thread.state?.tasks ?? []) : NO_ACTIVITY;
}

/** The open thread's subscription and what it has seen, kept across renders (a ref, not state). */
function emptyThreadStream() {
  return {
    threadId: null as string | null,
    unsubscribe: null as (() => void) | null,
    /** Runs this chat shows (started here, or active when the thread was opened). */
    followed: new Set<string>(),
    ended: new Set<string>(),
    seen: new Set<string>(),
    /** Events of runs not followed (yet), by run. */
    unclaimed: new Map<string, ThreadEvent[]>(),
    unclaimedCount: 0,
  };
}

function asApiError(caught: unknown): ApiError {
  return caught instanceof ApiError ? caught : new ApiError(String(caught), null, 0);
}
