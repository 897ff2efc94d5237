import { messagesOfValues, type ChatMessage } from "./chat-messages.js";
import { isPlainObject } from "./json-diff.js";

/**
 * What the console knows about one run from its thread's event stream (GraphQL threadEvents: the
 * LangGraph streaming protocol v2 channels, the same events REST's /threads/{id}/stream/events
 * sends), folded event by event. The console asks for `values` (the whole conversation after each
 * step), `messages` (message-start, text deltas, message-finish of the step in progress),
 * `updates` (which node finished), `tasks` (which node runs), `input` (interrupts) and
 * `lifecycle` (the run's start and end).
 */

/** A thread event as the ThreadEvent type delivers it. */
export interface ThreadEventLike {
  method: string;
  namespace: string[];
  node?: string | null;
  seq: number;
  data: unknown;
}

export interface InterruptInfo {
  id: string | null;
  value: unknown;
}

interface PartialMessage {
  id: string;
  text: string;
  node: string | null;
  /** The seq of its start: a later values event already holds the finished message. */
  firstSeq: number;
}

/** A message being streamed in one namespace and node: deltas name neither their message nor role. */
interface OpenMessage {
  id: string;
  isFromModel: boolean;
}

export interface RunStreamState {
  runId: string;
  /** pending until the worker starts it (its first event), running, ended when its lifecycle ends. */
  phase: "pending" | "running" | "ended";
  lastSeq: number;
  /** The latest full state (values event); null before the first. */
  values: Record<string, unknown> | null;
  partials: PartialMessage[];
  /** Nodes that finished, in order (updates events). */
  finishedNodes: string[];
  /** Nodes running now: tasks started but not yet finished (tasks events, top-level graph). */
  activeNodes: string[];
  /** Node → the interrupt values its task stopped with (tasks events). */
  interruptedNodes: Record<string, unknown[]>;
  interrupts: InterruptInfo[];
  /** Messages being streamed, by namespace and node. */
  openMessages: Record<string, OpenMessage>;
  /** Why the run failed (a lifecycle `failed` event). */
  error: { error: string; message: string } | null;
  /** Message chunks received: shows that the answer really streamed. */
  tokenChunks: number;
}

export function startRunStream(runId: string): RunStreamState {
  return {
    runId,
    phase: "pending",
    lastSeq: 0,
    values: null,
    partials: [],
    openMessages: {},
    finishedNodes: [],
    activeNodes: [],
    interruptedNodes: {},
    interrupts: [],
    error: null,
    tokenChunks: 0,
  };
}

export function applyThreadEvent(state: RunStreamState, event: ThreadEventLike): RunStreamState {
  const next: RunStreamState = {
    ...state,
    lastSeq: Math.max(state.lastSeq, event.seq),
    phase: state.phase === "pending" ? "running" : state.phase,
  };
  // Subgraphs' values, updates and tasks happen inside a top-level node that is already shown.
  const isRoot = event.namespace.length === 0;
  switch (event.method) {
    case "values":
      return isRoot ? applyValues(next, event.data, event.seq) : next;
    case "updates":
      return isRoot && isPlainObject(event.data) && typeof event.data.node === "string"
        ? { ...next, finishedNodes: [...next.finishedNodes, event.data.node] }
        : next;
    case "messages":
      return applyMessageEvent(next, event);
    case "tasks":
      return isRoot ? applyTask(next, event.data) : next;
    case "input.requested":
      return applyInputRequest(next, event.data);
    case "lifecycle":
      return isRoot && isPlainObject(event.data) && event.data.event === "failed"
        ? { ...next, error: { error: "Run failed", message: String(event.data.error ?? "") } }
        : next;
    default:
      return next;
  }
}

/** A root lifecycle event that ends the run: completed, failed, or interrupted (waiting for input). */
export function isRunEnd(event: ThreadEventLike): boolean {
  return (
    event.method === "lifecycle" &&
    event.namespace.length === 0 &&
    isPlainObject(event.data) &&
    ["completed", "failed", "interrupted"].includes(String(event.data.event))
  );
}

export function endRunStream(state: RunStreamState): RunStreamState {
  return { ...state, phase: "ended", activeNodes: [], openMessages: {} };
}

/**
 * A `tasks` event: `{id, name, input, triggers}` when a node's task starts, `{id, name, result,
 * error, interrupts}` when it ends. Several tasks of one node can run at once (Send), so the
 * node stays active until its last task ends.
 */
function applyTask(state: RunStreamState, data: unknown): RunStreamState {
  if (!isPlainObject(data) || typeof data.name !== "string") return state;
  const name = data.name;
  if ("triggers" in data) {
    const { [name]: _resumed, ...interruptedNodes } = state.interruptedNodes;
    return { ...state, activeNodes: [...state.activeNodes, name], interruptedNodes };
  }
  const index = state.activeNodes.indexOf(name);
  const activeNodes = index < 0 ? state.activeNodes : state.activeNodes.filter((_node, at) => at !== index);
  const interrupts = readInterrupts(data.interrupts);
  if (interrupts.length === 0) return { ...state, activeNodes };
  return { ...state, activeNodes, interruptedNodes: { ...state.interruptedNodes, [name]: interrupts.map((item) => item.value) } };
}

function applyValues(state: RunStreamState, data: unknown, seq: number): RunStreamState {
  if (!isPlainObject(data)) return state;
  return { ...state, values: data, partials: state.partials.filter((partial) => partial.firstSeq > seq) };
}

/** `input.requested`: `{interrupt_id, payload}`, one per interrupt (the server tells each once). */
function applyInputRequest(state: RunStreamState, data: unknown): RunStreamState {
  if (!isPlainObject(data)) return state;
  const id = typeof data.interrupt_id === "string" && data.interrupt_id !== "" ? data.interrupt_id : null;
  if (id !== null && state.interrupts.some((interrupt) => interrupt.id === id)) return state;
  return { ...state, interrupts: [...state.interrupts, { id, value: data.payload }] };
}

/**
 * A `messages` event: message-start opens a message (its id and role), content-block-delta adds
 * text to the open message of its namespace and node, message-finish closes it. Only the
 * model's (ai) messages stream into the transcript; a node's whole human or tool message does not.
 */
function applyMessageEvent(state: RunStreamState, event: ThreadEventLike): RunStreamState {
  if (!isPlainObject(event.data)) return state;
  const key = `${event.namespace.join("|")}#${event.node ?? ""}`;
  const open = state.openMessages[key];
  switch (event.data.event) {
    case "message-start": {
      const id = typeof event.data.id === "string" && event.data.id !== "" ? event.data.id : `message-${event.seq}`;
      const isFromModel = event.data.role === "ai";
      const openMessages = { ...state.openMessages, [key]: { id, isFromModel } };
      return isFromModel ? { ...appendToPartial(state, id, "", event.node ?? null, event.seq), openMessages } : { ...state, openMessages };
    }
    case "content-block-delta": {
      const delta = isPlainObject(event.data.delta) ? event.data.delta : null;
      if (!open?.isFromModel || delta?.type !== "text-delta" || typeof delta.text !== "string") return state;
      return { ...appendToPartial(state, open.id, delta.text, event.node ?? null, event.seq), tokenChunks: state.tokenChunks + 1 };
    }
    case "message-finish": {
      const { [key]: _finished, ...openMessages } = state.openMessages;
      return { ...state, openMessages };
    }
    default:
      return state;
  }
}

function appendToPartial(state: RunStreamState, id: string, text: string, node: string | null, seq: number): RunStreamState {
  const existing = state.partials.find((partial) => partial.id === id);
  if (!existing) return { ...state, partials: [...state.partials, { id, text, node, firstSeq: seq }] };
  return {
    ...state,
    partials: state.partials.map((partial) => (partial.id === id ? { ...partial, text: partial.text + text } : partial)),
  };
}

/** Interrupts as updates, values and ThreadState.interrupts carry them: `[{id, value}]`. */
export function readInterrupts(raw: unknown): InterruptInfo[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((item) =>
    isPlainObject(item) && "value" in item
      ? { id: typeof item.id === "string" ? item.id : null, value: item.value }
      : { id: null, value: item },
  );
}

/**
 * The conversation to show: the newest full state (the run's latest values, else the thread's
 * stored values), then the messages still streaming that the state does not hold yet.
 */
export function conversationOf(threadValues: unknown, run: RunStreamState | null, pendingUserText: string | null): ChatMessage[] {
  const base = messagesOfValues(run?.values ?? threadValues);
  const messages = run?.values || pendingUserText === null ? base : [...base, pendingUser(pendingUserText)];
  if (!run) return messages;
  const known = new Set(messages.map((message) => message.key));
  const streaming = run.partials
    .filter((partial) => !known.has(partial.id))
    .map((partial): ChatMessage => ({
      key: partial.id,
      role: "assistant",
      text: partial.text,
      toolCalls: [],
      name: partial.node,
      isStreaming: run.phase !== "ended",
    }));
  return [...messages, ...streaming];
}

function pendingUser(text: string): ChatMessage {
  return { key: "pending-user-message", role: "user", text, toolCalls: [], name: null, isStreaming: false };
}
