import { contentText, messagesOfValues, type ChatMessage } from "./chat-messages.js";
import { isPlainObject } from "./json-diff.js";

/**
 * What the console knows about one run from its event stream (runEvents over graphql-ws), folded
 * event by event. The console asks for `values`, `updates` and `messages-tuple`: values carry
 * the whole conversation after each step, message tuples carry the tokens of the step in
 * progress, updates say which node finished (and carry interrupts).
 */

/** A stream event as the RunEvent type delivers it. */
export interface RunEventLike {
  seq: number;
  event: string;
  mode: string;
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
  /** The seq of its first token: a later values event already holds the finished message. */
  firstSeq: number;
}

export interface RunStreamState {
  runId: string;
  /** pending until the worker starts it (the metadata event), running, ended when the stream completes. */
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
  /** The run's error event: {error, message}. */
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
    finishedNodes: [],
    activeNodes: [],
    interruptedNodes: {},
    interrupts: [],
    error: null,
    tokenChunks: 0,
  };
}

export function applyRunEvent(state: RunStreamState, event: RunEventLike): RunStreamState {
  // Replays after a reconnect resume from lastSeq; anything older was folded in already.
  if (event.seq <= state.lastSeq) return state;
  const next: RunStreamState = { ...state, lastSeq: event.seq, phase: state.phase === "pending" ? "running" : state.phase };
  switch (event.mode) {
    case "values":
      return applyValues(next, event);
    case "updates":
      return applyUpdates(next, event.data);
    case "messages":
      return applyMessages(next, event);
    case "tasks":
      // Subgraph tasks (`tasks|ns`) run inside a top-level node that is already shown as active.
      return event.event === "tasks" ? applyTask(next, event.data) : next;
    case "error":
      return { ...next, error: readError(event.data) };
    default:
      return next;
  }
}

export function endRunStream(state: RunStreamState): RunStreamState {
  return { ...state, phase: "ended", activeNodes: [] };
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

function applyValues(state: RunStreamState, event: RunEventLike): RunStreamState {
  if (!isPlainObject(event.data)) return state;
  const { __interrupt__: interrupts, ...values } = event.data;
  const withInterrupts = interrupts === undefined ? state : { ...state, interrupts: readInterrupts(interrupts) };
  // A values event that only announces an interrupt carries no state.
  if (Object.keys(values).length === 0 && interrupts !== undefined) return withInterrupts;
  return {
    ...withInterrupts,
    values,
    partials: state.partials.filter((partial) => partial.firstSeq > event.seq),
  };
}

function applyUpdates(state: RunStreamState, data: unknown): RunStreamState {
  if (!isPlainObject(data)) return state;
  let next = state;
  for (const [node, update] of Object.entries(data)) {
    if (node === "__interrupt__") next = { ...next, interrupts: readInterrupts(update) };
    else next = { ...next, finishedNodes: [...next.finishedNodes, node] };
  }
  return next;
}

/**
 * `messages` (messages-tuple) data is `[chunk, metadata]` with one token's chunk; the
 * `messages/partial` and `messages/complete` events of `messages` mode carry whole messages so far.
 */
function applyMessages(state: RunStreamState, event: RunEventLike): RunStreamState {
  if (!Array.isArray(event.data)) return state;
  if (event.event === "messages" || event.event.startsWith("messages|")) {
    const [chunk, metadata] = event.data as [unknown, unknown];
    if (!isPlainObject(chunk) || !isChunkFromModel(chunk)) return state;
    const id = typeof chunk.id === "string" ? chunk.id : `chunk-${event.seq}`;
    const node = isPlainObject(metadata) && typeof metadata.langgraph_node === "string" ? metadata.langgraph_node : null;
    return { ...appendToPartial(state, id, contentText(chunk.content), node, event.seq), tokenChunks: state.tokenChunks + 1 };
  }
  if (event.event.startsWith("messages/partial") || event.event.startsWith("messages/complete")) {
    let next = state;
    for (const message of event.data) {
      if (!isPlainObject(message) || typeof message.id !== "string") continue;
      next = replacePartial(next, message.id, contentText(message.content), event.seq);
    }
    return { ...next, tokenChunks: next.tokenChunks + 1 };
  }
  return state;
}

/** Model output only: a node returning a whole human/tool message in a tuple is not a token. */
function isChunkFromModel(chunk: Record<string, unknown>): boolean {
  const type = String(chunk.type ?? "");
  return type === "ai" || type === "AIMessageChunk" || type === "";
}

function appendToPartial(state: RunStreamState, id: string, text: string, node: string | null, seq: number): RunStreamState {
  const existing = state.partials.find((partial) => partial.id === id);
  if (!existing) return { ...state, partials: [...state.partials, { id, text, node, firstSeq: seq }] };
  return {
    ...state,
    partials: state.partials.map((partial) => (partial.id === id ? { ...partial, text: partial.text + text } : partial)),
  };
}

function replacePartial(state: RunStreamState, id: string, text: string, seq: number): RunStreamState {
  const existing = state.partials.find((partial) => partial.id === id);
  if (!existing) return { ...state, partials: [...state.partials, { id, text, node: null, firstSeq: seq }] };
  return { ...state, partials: state.partials.map((partial) => (partial.id === id ? { ...partial, text } : partial)) };
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

function readError(data: unknown): { error: string; message: string } {
  if (isPlainObject(data)) return { error: String(data.error ?? "Error"), message: String(data.message ?? "") };
  return { error: "Error", message: typeof data === "string" ? data : JSON.stringify(data) };
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
