/**
 * Helpers shared by the per-format normalizers. Normalizers never throw: anything they cannot
 * classify is kept as an `unknown` block (or a best-effort message) and explained by a warning,
 * because the rendered view is advisory and the raw run is stored verbatim anyway.
 */
import { parseJsonText } from "../../domain/json-depth.js";
import type { ContentBlock, MediaBlock, MediaType, MessageRole, NativeMessage } from "../message-types.js";

export type Side = "input" | "output";

/**
 * Accumulates one side's rendered messages. Normalizers append to `out` in order, so a warning
 * can name the message it concerns by its (0-based) index in the rendered list, which is the
 * list the reader of the warning sees; Anthropic tool results, for example, split one raw
 * message into several rendered ones.
 */
export interface NormalizeContext {
  side: Side;
  out: NativeMessage[];
  warnings: string[];
}

export function createContext(side: Side, warnings: string[]): NormalizeContext {
  return { side, out: [], warnings };
}

/** Label for the message about to be appended, e.g. `input message 3`. */
export function nextMessageLabel(ctx: NormalizeContext): string {
  return `${ctx.side} message ${ctx.out.length}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function optionalString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function textBlock(text: string): ContentBlock {
  return { type: "text", text };
}

/** Describes a value's type for warnings without dumping (possibly huge) payloads into them. */
export function describeType(value: unknown): string {
  if (isRecord(value) && typeof value.type === "string") return `"${value.type}"`;
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

export function unknownBlock(raw: unknown, where: string, warnings: string[]): ContentBlock {
  warnings.push(`${where}: unknown content block type ${describeType(raw)} (kept verbatim)`);
  return { type: "unknown", original: raw };
}

/**
 * Tool-call arguments arrive as a JSON string (OpenAI) or an object (Anthropic, LangChain,
 * native). Invalid JSON or a non-object is kept under `_raw` with a warning rather than lost.
 */
export function parseToolArguments(raw: unknown, where: string, warnings: string[]): Record<string, unknown> {
  if (isRecord(raw)) return raw;
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "string") {
    warnings.push(`${where}: tool call arguments are ${describeType(raw)}, not an object (kept under _raw)`);
    return { _raw: raw };
  }
  // Streaming clients report a call without arguments as "".
  if (raw.trim() === "") return {};
  const parsed = parseJsonText(raw, `${where}: tool call arguments`);
  if (parsed.ok && isRecord(parsed.value)) return parsed.value;
  if (parsed.ok) warnings.push(`${where}: tool call arguments are JSON but not an object (kept under _raw)`);
  else if (parsed.problem === "depth") warnings.push(`${parsed.message} (kept under _raw)`);
  else warnings.push(`${where}: tool call arguments are not valid JSON (kept under _raw)`);
  return { _raw: raw };
}

export interface MediaFields {
  url?: string;
  base64?: string;
  id?: string;
  mime_type?: string;
}

/** Builds a media block without undefined fields; warns when it references no content at all. */
export function mediaBlock(type: MediaType, fields: MediaFields, where: string, warnings: string[]): ContentBlock {
  const block: MediaBlock = { type };
  if (fields.url !== undefined) block.url = fields.url;
  if (fields.base64 !== undefined) block.base64 = fields.base64;
  if (fields.id !== undefined) block.id = fields.id;
  if (fields.mime_type !== undefined) block.mime_type = fields.mime_type;
  if (fields.url === undefined && fields.base64 === undefined && fields.id === undefined) {
    warnings.push(`${where}: ${type} block has neither url nor base64 nor id`);
  }
  return block;
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*?);base64,(.*)$/s;

/** `data:<mime>;base64,<data>` becomes base64 + mime_type; any other URL stays a URL. */
export function mediaFieldsFromUrl(url: string): MediaFields {
  const match = DATA_URL.exec(url);
  if (!match) return { url };
  const fields: MediaFields = { base64: match[3] };
  if (match[1] !== "") fields.mime_type = match[1];
  return fields;
}

/**
 * The rendered view needs one of the five native roles. An unknown role is reported and then
 * rendered from the side it appeared on: inputs are mostly what a user sent, outputs are what
 * the model produced.
 */
export function resolveRole(
  role: unknown,
  table: Readonly<Record<string, MessageRole>>,
  where: string,
  ctx: NormalizeContext,
): MessageRole {
  if (typeof role === "string" && Object.hasOwn(table, role)) return table[role];
  ctx.warnings.push(`${where}: unknown role ${JSON.stringify(role ?? null)} (rendered as ${fallbackRole(ctx.side)})`);
  return fallbackRole(ctx.side);
}

/** A message that is not even an object still renders, as one unknown block. */
export function appendUnparsableMessage(raw: unknown, ctx: NormalizeContext): void {
  const where = nextMessageLabel(ctx);
  ctx.warnings.push(`${where}: message is ${describeType(raw)}, not an object (kept verbatim)`);
  ctx.out.push({ role: fallbackRole(ctx.side), content: [{ type: "unknown", original: raw }] });
}

export function fallbackRole(side: Side): MessageRole {
  return side === "input" ? "user" : "assistant";
}

/**
 * Content given as a bare string (every format allows it) becomes one text block; an empty
 * string (an assistant turn that only calls tools) renders as no block rather than an empty one.
 */
export function normalizeContent(
  content: unknown,
  where: string,
  warnings: string[],
  normalizeBlock: (raw: unknown, where: string) => ContentBlock,
): ContentBlock[] {
  if (typeof content === "string") return content === "" ? [] : [textBlock(content)];
  if (content === undefined || content === null) return [];
  if (Array.isArray(content)) return content.map((raw) => normalizeBlock(raw, where));
  return [unknownBlock(content, where, warnings)];
}
