/**
 * LangGraph streaming protocol v2 frames (the shapes of `@langchain/protocol`'s types, which are
 * the wire's definition): commands in, success / error responses and events out.
 */

export const PROTOCOL_CHANNELS = ["values", "updates", "messages", "tools", "lifecycle", "input", "checkpoints", "tasks", "custom"] as const;

/** What a protocol run streams: every mode its channels are made of (with subgraphs). */
export const PROTOCOL_STREAM_MODES = ["values", "updates", "messages-tuple", "custom", "tasks", "checkpoints", "tools"] as const;

export type ProtocolErrorCode =
  | "invalid_argument"
  | "unknown_command"
  | "unknown_error"
  | "no_such_run"
  | "no_such_subscription"
  | "no_such_namespace"
  | "no_such_interrupt"
  | "no_such_checkpoint"
  | "permission_denied"
  | "not_supported";

export interface ProtocolEvent {
  type: "event";
  method: string;
  params: { namespace: string[]; timestamp: number; node?: string; data: unknown };
  seq: number;
  event_id: string;
}

export interface ProtocolCommand {
  id: number;
  method: string;
  params: Record<string, unknown>;
}

export type ProtocolResponse =
  | { type: "success"; id: number; result: Record<string, unknown> }
  | { type: "error"; id: number | null; error: ProtocolErrorCode; message: string };

/** A refusal that the protocol answers with its own error code. */
export class ProtocolError extends Error {
  constructor(
    readonly code: ProtocolErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Which events a subscription (WebSocket) or an event stream (SSE) wants. */
export interface EventFilter {
  channels: string[];
  /** Namespace prefixes; undefined: every namespace. */
  namespaces?: string[][];
  /** How far below a prefix (or the root) events still match; undefined: any depth. */
  depth?: number;
}

/** A command frame, or the protocol error naming what is wrong with it (its id when it has one). */
export function parseCommand(frame: unknown): ProtocolCommand {
  if (typeof frame !== "object" || frame === null || Array.isArray(frame)) {
    throw new ProtocolError("invalid_argument", "a command must be a JSON object with id, method and params");
  }
  const { id, method, params } = frame as Record<string, unknown>;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) throw new ProtocolError("invalid_argument", "id must be a non-negative integer");
  if (typeof method !== "string") throw new ProtocolError("invalid_argument", "method must be a string");
  if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) {
    throw new ProtocolError("invalid_argument", "params must be an object");
  }
  return { id, method, params: (params as Record<string, unknown> | undefined) ?? {} };
}

/** The filter of a subscribe command or an event stream body; invalid_argument naming the field. */
export function eventFilterOf(params: Record<string, unknown>): EventFilter {
  const { channels, namespaces, depth } = params;
  if (!Array.isArray(channels) || channels.length === 0 || !channels.every(isKnownChannel)) {
    throw new ProtocolError("invalid_argument", `channels must be a non-empty list of ${PROTOCOL_CHANNELS.join(", ")} or custom:<name>`);
  }
  if (namespaces !== undefined && !(Array.isArray(namespaces) && namespaces.every((ns) => Array.isArray(ns) && ns.every((s) => typeof s === "string")))) {
    throw new ProtocolError("invalid_argument", "namespaces must be a list of namespaces (lists of strings)");
  }
  if (depth !== undefined && !(Number.isSafeInteger(depth) && (depth as number) >= 0)) {
    throw new ProtocolError("invalid_argument", "depth must be a non-negative integer");
  }
  return { channels: channels as string[], namespaces: namespaces as string[][] | undefined, depth: depth as number | undefined };
}

/** `since`: a stream position (an event's `seq`) to replay after; invalid_argument otherwise. */
export function sinceOf(params: Record<string, unknown>): number | undefined {
  const { since } = params;
  if (since === undefined || since === null) return undefined;
  if (!Number.isSafeInteger(since) || (since as number) < 0) throw new ProtocolError("invalid_argument", "since must be a non-negative integer");
  return since as number;
}

/**
 * A subscription's id carries its filter (base64url JSON, then a random part): a reconnecting
 * client names its old subscriptions and any process can restore them, with nothing kept per
 * socket once it closes.
 */
export function subscriptionIdOf(filter: EventFilter, random: string): string {
  return `${Buffer.from(JSON.stringify(filter)).toString("base64url")}.${random}`;
}

/** The filter a subscription id carries; no_such_subscription for an id this server did not make. */
export function filterOfSubscriptionId(id: unknown): EventFilter {
  const refusal = new ProtocolError("no_such_subscription", `'${String(id)}' is not a subscription id of this server`);
  if (typeof id !== "string" || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9-]+$/.test(id)) throw refusal;
  try {
    const filter: unknown = JSON.parse(Buffer.from(id.split(".", 1)[0]!, "base64url").toString());
    if (typeof filter !== "object" || filter === null || Array.isArray(filter)) throw refusal;
    return eventFilterOf(filter as Record<string, unknown>);
  } catch {
    throw refusal;
  }
}

/**
 * Resuming after an event id (`position:index`, `position:end:<run>:index`): the replay starts at
 * that stored event again (since = position - 1) and skips what of it came up to the id, so a
 * stored event whose protocol events were cut off halfway is not lost. Undefined: not an event id.
 */
export function resumeAfterEventId(eventId: string): { since: number; delivered: (event: ProtocolEvent) => boolean } | undefined {
  const match = /^(\d+):(?:end:[^:]+:)?(\d+)$/.exec(eventId);
  if (!match) return undefined;
  const position = Number(match[1]);
  if (!Number.isSafeInteger(position) || position < 1) return undefined;
  const last = ordinalOf(eventId);
  return { since: position - 1, delivered: (event) => event.seq < position || (event.seq === position && ordinalOf(event.event_id) <= last) };
}

/** Stream order: by stored position, then within one stored event. */
export function compareEvents(a: ProtocolEvent, b: ProtocolEvent): number {
  return a.seq - b.seq || ordinalOf(a.event_id) - ordinalOf(b.event_id);
}

/** An event's order within its stored event: its protocol events, then its run's end. */
function ordinalOf(eventId: string): number {
  const parts = eventId.split(":");
  return (parts[1] === "end" ? 1_000_000 : 0) + Number(parts.at(-1));
}

function isKnownChannel(channel: unknown): boolean {
  return typeof channel === "string" && ((PROTOCOL_CHANNELS as readonly string[]).includes(channel) || /^custom:.+/.test(channel));
}

/** The channel an event travels on: `input.requested` on `input`. */
function channelOf(event: ProtocolEvent): string {
  return event.method.startsWith("input.") ? "input" : event.method;
}

/** Whether a namespace segment (`gp_two:1f0…`) is the prefix's (`gp_two` or `gp_two:1f0…`). */
function segmentMatches(segment: string, wanted: string): boolean {
  return segment === wanted || segment.startsWith(`${wanted}:`);
}

/** Whether a filter wants an event. Asked for every event of every subscriber: plain loops, no closures. */
export function matchesFilter(filter: EventFilter, event: ProtocolEvent): boolean {
  const channel = channelOf(event);
  let channelWanted = false;
  for (const wanted of filter.channels) {
    if (wanted === channel || (channel === "custom" && wanted === `custom:${String(customNameOf(event))}`)) {
      channelWanted = true;
      break;
    }
  }
  if (!channelWanted) return false;
  const { namespace } = event.params;
  if (filter.namespaces === undefined) return filter.depth === undefined || namespace.length <= filter.depth;
  for (const prefix of filter.namespaces) if (isUnderPrefix(namespace, prefix, filter.depth)) return true;
  return false;
}

function customNameOf(event: ProtocolEvent): unknown {
  const { data } = event.params;
  return typeof data === "object" && data !== null ? (data as { name?: unknown }).name : undefined;
}

function isUnderPrefix(namespace: string[], prefix: string[], depth: number | undefined): boolean {
  if (prefix.length > namespace.length) return false;
  for (let index = 0; index < prefix.length; index++) if (!segmentMatches(namespace[index]!, prefix[index]!)) return false;
  return depth === undefined || namespace.length - prefix.length <= depth;
}

/** A command's failure as the protocol's error response (Hangar's own errors mapped to codes). */
export function errorResponse(id: number | null, error: ProtocolError): ProtocolResponse {
  return { type: "error", id, error: error.code, message: error.message };
}

const FRAMES = new WeakMap<object, string>();

/** An outgoing message as JSON, serialized once however many sockets send the same event. */
export function frameOf(message: object): string {
  let frame = FRAMES.get(message);
  if (frame === undefined) {
    frame = JSON.stringify(message);
    FRAMES.set(message, frame);
  }
  return frame;
}

const FRAME_BYTES = new WeakMap<object, Buffer>();

/** frameOf as UTF-8 bytes, encoded once for every socket that sends it. */
export function frameBytesOf(message: object): Buffer {
  let bytes = FRAME_BYTES.get(message);
  if (bytes === undefined) {
    bytes = Buffer.from(frameOf(message));
    FRAME_BYTES.set(message, bytes);
  }
  return bytes;
}
