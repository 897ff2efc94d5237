import type { RunStreamEvent } from "../domain/run-event.js";
import type { ProtocolEvent } from "./protocol-wire.js";

/**
 * Hangar's stored run events as LangGraph streaming protocol v2 events. A stored event is named
 * `mode|ns1|ns2` (subgraph namespaces joined by `|`, as LangGraph's stream_subgraphs names them),
 * its data is the mode's JSON. One stored event becomes zero or more protocol events; messages
 * need what came before (a message's first chunk opens it), so a mapper is per stream, in order.
 * Every protocol event carries the stored event's thread stream position as `seq` (what `since`
 * resumes after) and `event_id` `position:index`.
 */
/**
 * Recent stored events' mappings by stream position (insertion order: oldest first), each with
 * the run and name it maps: a position is unique within one database, and one process may serve
 * several (tests do). A number key: every subscriber looks each event up, and building a string
 * key per lookup was measurable with 100 subscribers of a thread.
 */
const SHARED_MAPPINGS = new Map<number, { runId: string; name: string; mapped: ProtocolEvent[] }>();
const MAX_SHARED_MAPPINGS = 4096;

// The run each protocol event came from. Not part of the protocol's wire (its events name no
// run), so kept beside the events rather than in them; GraphQL's ThreadEvent.runId reads it.
// Noted once per mapping, which shared mappings hand to every stream.
const RUN_OF_EVENT = new WeakMap<ProtocolEvent, string>();

/** The run a protocol event came from (events a ProtocolEventMapper made). */
export function runIdOfEvent(event: ProtocolEvent): string | undefined {
  return RUN_OF_EVENT.get(event);
}

/**
 * Modes whose mapping depends on the stored event alone, not on what the stream saw before
 * (messages open and close, interrupts are told once, tasks end namespaces, run ends).
 */
function isStateless(mode: string, data: string): boolean {
  if (mode === "custom" || mode === "checkpoints" || mode === "tools") return true;
  return (mode === "values" || mode === "updates") && !data.includes("__interrupt__");
}

export class ProtocolEventMapper {
  /** Open messages by id: their namespace, node and text so far. */
  private readonly openMessages = new Map<string, { namespace: string[]; node?: string; text: string }>();
  private readonly startedNamespaces = new Set<string>();
  private readonly requestedInterrupts = new Set<string>();
  /** The current run asked for input: it ends `interrupted` (Hangar records such a run as success). */
  private inputRequested = false;
  private lastPosition = 0;
  private readonly endedRuns = new Set<string>();

  map(event: RunStreamEvent): ProtocolEvent[] {
    const storedPosition = positionOf(event);
    // Every stream of the thread maps this stored event the same way: the first one's result is
    // shared (and so is its serialized frame, see frameOf), not parsed again per subscriber.
    // Looked up first: a subscriber's cost per event is this lookup and its filter.
    const shared = storedPosition > 0 ? SHARED_MAPPINGS.get(storedPosition) : undefined;
    if (shared && shared.runId === event.runId && shared.name === event.event && this.namespaceStarted(event.event)) {
      this.lastPosition = storedPosition;
      return shared.mapped;
    }
    const [modeName = "", ...namespace] = event.event.split("|");
    const mode = modeName.split("/", 1)[0]!;
    const timestamp = Date.now();
    const out: Array<Omit<ProtocolEvent, "type" | "seq" | "event_id">> = [];
    const emit = (method: string, data: unknown, extra: Record<string, unknown> = {}) =>
      out.push({ method, params: { namespace, timestamp, ...extra, data } });
    const lifecycle = (at: string[], data: Record<string, unknown>) => out.push({ method: "lifecycle", params: { namespace: at, timestamp, data } });
    if (namespace.length > 0) this.startNamespace(namespace, lifecycle);
    const sharing = out.length === 0 && storedPosition > 0 && isStateless(mode, event.data);
    const data = parseData(event.data);
    switch (mode) {
      case "metadata":
        this.startedNamespaces.clear();
        this.inputRequested = false;
        // The run's graph, as read with its stored events (read-thread-events.ts).
        emit("lifecycle", { event: "started", graph_name: event.graphId });
        break;
      case "run_done":
        // An end read from the run's status may also arrive live: it is told once.
        if (this.endedRuns.has(event.runId)) return [];
        this.endedRuns.add(event.runId);
        this.finishAllMessages(out, timestamp);
        emit("lifecycle", { event: this.inputRequested ? "interrupted" : lifecycleOfRunStatus(isRecord(data) ? String(data.status) : "") });
        break;
      case "error":
        this.finishAllMessages(out, timestamp);
        emit("lifecycle", { event: "failed", error: isRecord(data) ? String(data.message ?? data.error ?? "") : String(data) });
        break;
      case "values":
        if (isRecord(data) && "__interrupt__" in data) this.requestInput(data.__interrupt__, emit);
        else emit("values", data);
        break;
      case "updates":
        if (!isRecord(data)) break;
        for (const [node, values] of Object.entries(data)) {
          if (node === "__interrupt__") this.requestInput(values, emit);
          else emit("updates", { node, values: isRecord(values) ? values : {} });
        }
        break;
      case "messages":
        if (modeName === "messages" && Array.isArray(data)) this.mapMessageChunk(data[0], data[1], namespace, out, timestamp);
        break;
      case "custom":
        emit("custom", { payload: data });
        break;
      case "checkpoints":
        if (isRecord(data)) emit("checkpoints", checkpointOf(data));
        break;
      case "tasks":
        emit("tasks", data);
        if (isRecord(data)) this.endNamespaceOfTask(namespace, data, lifecycle);
        break;
      case "tools":
        if (isRecord(data)) emit("tools", toolEventOf(data, event.runId));
        break;
    }
    // A run's end has no position of its own: it comes after the last event seen (ids stay unique).
    const position = positionOf(event) || this.lastPosition;
    this.lastPosition = position;
    const suffix = positionOf(event) === 0 ? `end:${event.runId}:` : "";
    const mapped = out.map((item, index): ProtocolEvent => ({ type: "event", ...item, seq: position, event_id: `${position}:${suffix}${index}` }));
    for (const protocolEvent of mapped) RUN_OF_EVENT.set(protocolEvent, event.runId);
    if (sharing) {
      SHARED_MAPPINGS.set(storedPosition, { runId: event.runId, name: event.event, mapped });
      if (SHARED_MAPPINGS.size > MAX_SHARED_MAPPINGS) SHARED_MAPPINGS.delete(SHARED_MAPPINGS.keys().next().value!);
    }
    return mapped;
  }

  /** Whether this stream already told the namespace of an event named `mode|ns1|ns2` started. */
  private namespaceStarted(name: string): boolean {
    const separator = name.indexOf("|");
    return separator < 0 || this.startedNamespaces.has(name.slice(separator + 1));
  }

  private startNamespace(namespace: string[], lifecycle: (at: string[], data: Record<string, unknown>) => void): void {
    for (let depth = 1; depth <= namespace.length; depth++) {
      const key = namespace.slice(0, depth).join("|");
      if (this.startedNamespaces.has(key)) continue;
      this.startedNamespaces.add(key);
      lifecycle(namespace.slice(0, depth), { event: "started", graph_name: namespace[depth - 1]!.split(":", 1)[0] });
    }
  }

  /**
   * A task's result in namespace N ends the subgraph that task ran, if it ran one: the namespace
   * `[...N, "name:id"]` whose events were seen. It ends completed, failed or interrupted as the
   * task did.
   */
  private endNamespaceOfTask(namespace: string[], task: Record<string, unknown>, lifecycle: (at: string[], data: Record<string, unknown>) => void): void {
    if (!("result" in task) && !("error" in task)) return;
    const child = [...namespace, `${String(task.name)}:${String(task.id)}`];
    if (!this.startedNamespaces.has(child.join("|"))) return;
    const interrupted = Array.isArray(task.interrupts) && task.interrupts.length > 0;
    const failed = task.error !== null && task.error !== undefined;
    lifecycle(child, failed ? { event: "failed", error: errorMessageOf(task.error) } : { event: interrupted ? "interrupted" : "completed" });
  }

  private requestInput(interrupts: unknown, emit: (method: string, data: unknown) => void): void {
    for (const interrupt of Array.isArray(interrupts) ? interrupts : []) {
      if (!isRecord(interrupt)) continue;
      const id = String(interrupt.id ?? interrupt.interrupt_id ?? "");
      if (this.requestedInterrupts.has(id)) continue;
      this.requestedInterrupts.add(id);
      this.inputRequested = true;
      emit("input.requested", { interrupt_id: id, payload: interrupt.value });
    }
  }

  /** A LangChain message (chunk) as message-start / content-block-* / message-finish. */
  private mapMessageChunk(
    message: unknown,
    metadata: unknown,
    namespace: string[],
    out: Array<Omit<ProtocolEvent, "type" | "seq" | "event_id">>,
    timestamp: number,
  ): void {
    if (!isRecord(message)) return;
    const id = String(message.id ?? "");
    const node = isRecord(metadata) && typeof metadata.langgraph_node === "string" ? metadata.langgraph_node : undefined;
    const push = (data: Record<string, unknown>) => out.push({ method: "messages", params: { namespace, timestamp, ...(node ? { node } : {}), data } });
    const type = String(message.type ?? "");
    // Chunks and whole messages share `type: "ai"` on the wire; only a chunk has tool_call_chunks.
    const isChunk = type.endsWith("Chunk") || type.endsWith("_chunk") || Array.isArray(message.tool_call_chunks);
    let open = this.openMessages.get(id);
    if (!open) {
      open = { namespace, node, text: "" };
      this.openMessages.set(id, open);
      push({ event: "message-start", role: roleOf(type), id, metadata: messageMetadataOf(metadata) });
      push({ event: "content-block-start", index: 0, content: { type: "text", text: "" } });
    }
    const text = textOf(message.content);
    if (isChunk && text.length > 0) {
      open.text += text;
      push({ event: "content-block-delta", index: 0, delta: { type: "text-delta", text } });
    } else if (!isChunk && text.length > open.text.length && text.startsWith(open.text)) {
      const rest = text.slice(open.text.length);
      open.text = text;
      push({ event: "content-block-delta", index: 0, delta: { type: "text-delta", text: rest } });
    }
    const finishReason = isRecord(message.response_metadata) ? message.response_metadata.finish_reason : undefined;
    if (!isChunk || finishReason != null || message.chunk_position === "last") {
      this.openMessages.delete(id);
      push({ event: "content-block-finish", index: 0, content: { type: "text", text: open.text } });
      const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isRecord) : [];
      toolCalls.forEach((call, offset) => {
        const content = { type: "tool_call", id: call.id, name: call.name, args: call.args ?? {} };
        push({ event: "content-block-start", index: offset + 1, content });
        push({ event: "content-block-finish", index: offset + 1, content });
      });
      push({ event: "message-finish", ...(isRecord(message.usage_metadata) ? { usage: message.usage_metadata } : {}) });
    }
  }

  private finishAllMessages(out: Array<Omit<ProtocolEvent, "type" | "seq" | "event_id">>, timestamp: number): void {
    for (const [, open] of this.openMessages) {
      const params = { namespace: open.namespace, timestamp, ...(open.node ? { node: open.node } : {}) };
      out.push({ method: "messages", params: { ...params, data: { event: "content-block-finish", index: 0, content: { type: "text", text: open.text } } } });
      out.push({ method: "messages", params: { ...params, data: { event: "message-finish" } } });
    }
    this.openMessages.clear();
  }
}

/**
 * LangGraph's `tools` stream mode (on_tool_start / on_tool_event / on_tool_end / on_tool_error,
 * from ToolNode and createAgent tools) as the protocol's tool lifecycle. A tool called without a
 * tool call id is named by run and tool, so its start and end still pair up.
 */
function toolEventOf(data: Record<string, unknown>, runId: string): Record<string, unknown> {
  const name = typeof data.name === "string" ? data.name : "tool";
  const toolCallId = typeof data.toolCallId === "string" ? data.toolCallId : typeof data.tool_call_id === "string" ? data.tool_call_id : `${runId}:${name}`;
  switch (data.event) {
    case "on_tool_start":
      return { event: "tool-started", tool_call_id: toolCallId, tool_name: name, input: argumentsOf(data.input) };
    case "on_tool_end":
      return { event: "tool-finished", tool_call_id: toolCallId, output: data.output ?? null };
    case "on_tool_error":
      return { event: "tool-error", tool_call_id: toolCallId, message: errorMessageOf(data.error) };
    default:
      return { event: "tool-output-delta", tool_call_id: toolCallId, delta: typeof data.data === "string" ? data.data : JSON.stringify(data.data ?? null) };
  }
}

/** LangChain hands a tool's arguments over as their JSON text: the protocol carries them parsed. */
function argumentsOf(input: unknown): unknown {
  if (typeof input !== "string") return input ?? null;
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

function errorMessageOf(error: unknown): string {
  if (typeof error === "string") return error;
  if (isRecord(error) && typeof error.message === "string") return error.message;
  return JSON.stringify(error ?? "tool failed");
}

function positionOf(event: RunStreamEvent): number {
  const position = Number(event.streamId);
  return Number.isSafeInteger(position) ? position : 0;
}

function lifecycleOfRunStatus(status: string): string {
  if (status === "success") return "completed";
  if (status === "interrupted") return "interrupted";
  return "failed";
}

function roleOf(type: string): string {
  if (type.startsWith("human")) return "human";
  if (type.startsWith("system")) return "system";
  if (type.startsWith("tool")) return "tool";
  return "ai";
}

function messageMetadataOf(metadata: unknown): Record<string, unknown> {
  if (!isRecord(metadata)) return {};
  const scalars = Object.entries(metadata).filter(([, value]) => value === null || ["string", "number", "boolean"].includes(typeof value));
  return Object.fromEntries(scalars);
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((block) => (isRecord(block) && block.type === "text" && typeof block.text === "string" ? block.text : "")).join("");
}

function checkpointOf(data: Record<string, unknown>): Record<string, unknown> {
  const config = isRecord(data.config) && isRecord(data.config.configurable) ? data.config.configurable : {};
  const parent = isRecord(data.parent_config) && isRecord(data.parent_config.configurable) ? data.parent_config.configurable : {};
  const metadata = isRecord(data.metadata) ? data.metadata : {};
  return {
    id: String(config.checkpoint_id ?? ""),
    ...(parent.checkpoint_id ? { parent_id: String(parent.checkpoint_id) } : {}),
    step: typeof metadata.step === "number" ? metadata.step : 0,
    source: typeof metadata.source === "string" ? metadata.source : "loop",
  };
}

function parseData(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
