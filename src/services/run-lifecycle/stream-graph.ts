import type { StreamMode } from "../../domain/run.js";
import type { CompiledGraphLike } from "../../graphs/graph-shapes.js";
import { toWireCheckpointPayload, toWireDebugEvent } from "./debug-checkpoint.js";

/** One event as SSE names it, with its data still a graph value (serialized later, once). */
export interface GraphStreamEvent {
  event: string;
  data: unknown;
}

export interface GraphStreamRequest {
  input: unknown;
  /** LangGraph invocation options: configurable, metadata, context, signal, interrupts, ... */
  options: Record<string, unknown>;
  modes: readonly StreamMode[];
  subgraphs: boolean;
  /** The root LangChain run id; `events` mode recognises the graph's own chunks by it. */
  rootRunId: string;
}

// LangGraph's own stream modes behind each wire mode. `messages` (metadata/partial/complete
// events, LangGraph Platform's) is built from LangGraph's message tuples (tokens) and from
// `values` (each message of the state is completed once, after the values event that has it).
const LIBRARY_MODES: Record<StreamMode, readonly string[]> = {
  values: ["values"],
  updates: ["updates"],
  messages: ["messages", "values"],
  "messages-tuple": ["messages"],
  custom: ["custom"],
  events: [],
  debug: ["debug"],
  tasks: ["tasks"],
  checkpoints: ["checkpoints"],
  // on_tool_start / on_tool_event / on_tool_end / on_tool_error, as LangGraph emits them.
  tools: ["tools"],
};

/**
 * Runs the graph and yields the wire events for the requested modes. `events` mode needs
 * LangChain's callback events, so then the graph runs through streamEvents and its own chunks are
 * picked out of the root run's on_chain_stream events; otherwise graph.stream is used, which
 * skips the callback machinery (much cheaper per step).
 */
export async function* streamGraph(graph: CompiledGraphLike, request: GraphStreamRequest): AsyncGenerator<GraphStreamEvent> {
  const libraryModes = [...new Set(request.modes.flatMap((mode) => LIBRARY_MODES[mode]))];
  const wireModes = new Set<string>(request.modes);
  const messages = new PartialMessages();

  const options = { ...request.options, streamMode: libraryModes, subgraphs: request.subgraphs };
  if (wireModes.has("events") && graph.streamEvents) {
    const events = graph.streamEvents(request.input, { ...options, version: "v2", runId: request.rootRunId });
    for await (const raw of events) {
      const event = raw as { event: string; run_id: string; tags?: string[]; data?: { chunk?: unknown } };
      if (event.tags?.includes("langsmith:hidden")) continue;
      if (event.event === "on_chain_stream" && event.run_id === request.rootRunId && libraryModes.length > 0) {
        yield* translateChunk(event.data?.chunk, request.subgraphs, wireModes, messages);
      }
      yield { event: "events", data: event };
    }
    for (const [event, data] of messages.completeAll()) yield { event, data };
    return;
  }
  if (libraryModes.length === 0) {
    await graph.invoke(request.input, request.options);
    return;
  }
  for await (const chunk of await graph.stream(request.input, { ...options, runId: request.rootRunId })) {
    yield* translateChunk(chunk, request.subgraphs, wireModes, messages);
  }
  for (const [event, data] of messages.completeAll()) yield { event, data };
}

function* translateChunk(
  chunk: unknown,
  subgraphs: boolean,
  wireModes: ReadonlySet<string>,
  messages: PartialMessages,
): Generator<GraphStreamEvent> {
  if (!Array.isArray(chunk)) return;
  const [namespace, mode, data] = subgraphs ? (chunk as [string[], string, unknown]) : [[], ...(chunk as [string, unknown])];
  const suffix = namespace.length > 0 ? `|${namespace.join("|")}` : "";

  if (mode === "messages") {
    if (wireModes.has("messages-tuple")) yield { event: `messages${suffix}`, data };
    if (wireModes.has("messages")) {
      for (const [event, payload] of messages.accept(data)) yield { event: `${event}${suffix}`, data: payload };
    }
    return;
  }
  if (wireModes.has(mode)) {
    if (mode === "debug") yield { event: `${mode}${suffix}`, data: toWireDebugEvent(data) };
    else if (mode === "checkpoints") yield { event: `${mode}${suffix}`, data: toWireCheckpointPayload(data) };
    else yield { event: `${mode}${suffix}`, data };
  }
  // After the values event, as LangGraph Platform orders them.
  if (mode === "values" && wireModes.has("messages")) {
    for (const [event, payload] of messages.completeFrom(data)) yield { event: `${event}${suffix}`, data: payload };
  }
}

interface MessageLike {
  id?: string;
  concat?: (other: unknown) => MessageLike;
}

/**
 * LangGraph Platform's `messages` mode: `messages/metadata` when a streamed message first
 * appears, `messages/partial` with the message accumulated so far on each token, and
 * `messages/complete` with the messages of the state that were not completed before, after each
 * values event (so also the input and messages no model streamed). A streamed message that never
 * reaches the state is completed when the run ends.
 */
class PartialMessages {
  private readonly open = new Map<string, MessageLike>();
  private readonly completed = new Set<string>();

  *accept(tuple: unknown): Generator<[string, unknown]> {
    if (!Array.isArray(tuple)) return;
    const [message, metadata] = tuple as [MessageLike, unknown];
    // Whole messages (a node's output, a model that did not stream) are completed from the state.
    if (typeof message?.concat !== "function" || !message.id || this.completed.has(message.id)) return;
    const previous = this.open.get(message.id);
    if (previous === undefined) yield ["messages/metadata", { [message.id]: { metadata } }];
    const accumulated = previous?.concat ? previous.concat(message) : message;
    this.open.set(message.id, accumulated);
    yield ["messages/partial", [accumulated]];
  }

  /** The messages of a values event not completed yet. */
  *completeFrom(values: unknown): Generator<[string, unknown]> {
    const stateMessages = (values as { messages?: unknown } | null)?.messages;
    const list = Array.isArray(stateMessages) ? stateMessages : stateMessages ? [stateMessages] : [];
    const finished: MessageLike[] = [];
    for (const message of list as MessageLike[]) {
      if (typeof message?.id !== "string" || message.id === "" || this.completed.has(message.id)) continue;
      this.completed.add(message.id);
      this.open.delete(message.id);
      finished.push(message);
    }
    if (finished.length > 0) yield ["messages/complete", finished];
  }

  *completeAll(): Generator<[string, unknown]> {
    if (this.open.size === 0) return;
    const finished = [...this.open.values()];
    for (const id of this.open.keys()) this.completed.add(id);
    this.open.clear();
    yield ["messages/complete", finished];
  }
}
