/**
 * Anthropic messages: request `{system?, messages: [{role: user|assistant, content}]}` and the
 * response `{type: "message", role: "assistant", content: [blocks], usage}`. Tool results are
 * blocks inside a user turn in Anthropic's format but messages of their own in the native one,
 * so a user turn is split at each tool_result, keeping the original order.
 */
import type { ContentBlock, MessageRole, NativeMessage } from "../message-types.js";
import {
  type NormalizeContext,
  appendUnparsableMessage,
  isRecord,
  mediaBlock,
  nextMessageLabel,
  normalizeContent,
  optionalString,
  parseToolArguments,
  resolveRole,
  unknownBlock,
} from "./shared.js";

const ANTHROPIC_ROLES: Readonly<Record<string, MessageRole>> = { user: "user", assistant: "assistant" };

const ANTHROPIC_ONLY_TYPES = new Set([
  "tool_use",
  "tool_result",
  "thinking",
  "redacted_thinking",
  "document",
  "server_tool_use",
  "search_result",
]);

/** web_search_tool_result, code_execution_tool_result, mcp_tool_result …; not the native type. */
function isServerToolResultType(type: string): boolean {
  return type.endsWith("_tool_result") && type !== "tool_result" && type !== "server_tool_result";
}

function isServerToolUseType(type: string): boolean {
  return type === "server_tool_use" || type === "mcp_tool_use";
}

function isAnthropicOnlyBlock(raw: unknown): boolean {
  if (!isRecord(raw) || typeof raw.type !== "string") return false;
  return (
    ANTHROPIC_ONLY_TYPES.has(raw.type) ||
    isServerToolUseType(raw.type) ||
    isServerToolResultType(raw.type) ||
    isRecord(raw.source) ||
    "cache_control" in raw
  );
}

/** Features no other format has: used to tell Anthropic payloads apart (see render-messages). */
export function hasAnthropicMarkers(messages: readonly unknown[]): boolean {
  return messages.some(
    (message) => isRecord(message) && Array.isArray(message.content) && message.content.some(isAnthropicOnlyBlock),
  );
}

/** Normalizes one Anthropic content block; null when it is not an Anthropic block type. */
export function normalizeAnthropicBlock(raw: unknown, where: string, warnings: string[]): ContentBlock | null {
  if (!isRecord(raw) || typeof raw.type !== "string") return null;
  const type = raw.type;
  switch (type) {
    case "text": {
      if (typeof raw.text !== "string") return null;
      const block: ContentBlock = { type: "text", text: raw.text };
      if (Array.isArray(raw.citations)) block.annotations = raw.citations;
      return block;
    }
    case "image":
    case "document":
      return isRecord(raw.source) ? normalizeSource(type, raw.source, raw, where, warnings) : null;
    case "tool_use": {
      const block: ContentBlock = { type: "tool_call", args: parseToolArguments(raw.input, where, warnings) };
      if (typeof raw.name === "string") block.name = raw.name;
      if (typeof raw.id === "string") block.id = raw.id;
      return block;
    }
    case "thinking":
      return typeof raw.thinking === "string"
        ? { type: "reasoning", text: raw.thinking, ...(typeof raw.signature === "string" ? { extras: { signature: raw.signature } } : {}) }
        : null;
    case "redacted_thinking":
      // Encrypted reasoning: nothing readable, but its presence matters when reading a trace.
      return { type: "reasoning", text: "", extras: { redacted: true, data: raw.data } };
    default:
      break;
  }
  if (isServerToolUseType(type)) {
    return {
      type: "server_tool_call",
      id: optionalString(raw.id) ?? "",
      name: optionalString(raw.name) ?? "",
      args: parseToolArguments(raw.input, where, warnings),
    };
  }
  if (isServerToolResultType(type)) {
    // Failures come back as content `{type: "web_search_tool_result_error", error_code}` (or
    // `is_error` on MCP results) rather than as a status field.
    const isError =
      raw.is_error === true || (isRecord(raw.content) && String(raw.content.type).endsWith("_error"));
    return {
      type: "server_tool_result",
      tool_call_id: optionalString(raw.tool_use_id) ?? "",
      status: isError ? "error" : "success",
      output: raw.content,
    };
  }
  return null;
}

function normalizeSource(
  type: "image" | "document",
  source: Record<string, unknown>,
  raw: Record<string, unknown>,
  where: string,
  warnings: string[],
): ContentBlock {
  const mediaType = type === "image" ? "image" : "file";
  switch (source.type) {
    case "base64":
      return mediaBlock(mediaType, { base64: optionalString(source.data), mime_type: optionalString(source.media_type) }, where, warnings);
    case "url":
      return mediaBlock(mediaType, { url: optionalString(source.url) }, where, warnings);
    case "file":
      return mediaBlock(mediaType, { id: optionalString(source.file_id) }, where, warnings);
    case "text":
      // Plain-text documents are readable as they are; render them as text, marked as a document.
      if (typeof source.data === "string") {
        return { type: "text", text: source.data, extras: { document: true, ...(typeof raw.title === "string" ? { title: raw.title } : {}) } };
      }
      break;
    default:
      break;
  }
  return unknownBlock(raw, where, warnings);
}

function normalizeBlockOrUnknown(raw: unknown, where: string, warnings: string[]): ContentBlock {
  return normalizeAnthropicBlock(raw, where, warnings) ?? unknownBlock(raw, where, warnings);
}

/** A request: the top-level `system` (string or text blocks) comes first, as a system message. */
export function appendAnthropicRequest(system: unknown, messages: readonly unknown[], ctx: NormalizeContext): void {
  if (system !== undefined && system !== null) {
    const where = nextMessageLabel(ctx);
    const content = normalizeContent(system, where, ctx.warnings, (raw, at) => normalizeBlockOrUnknown(raw, at, ctx.warnings));
    if (content.length > 0) ctx.out.push({ role: "system", content });
  }
  appendAnthropicMessages(messages, ctx);
}

export function appendAnthropicMessages(messages: readonly unknown[], ctx: NormalizeContext): void {
  for (const raw of messages) {
    if (!isRecord(raw)) {
      appendUnparsableMessage(raw, ctx);
      continue;
    }
    const role = resolveRole(raw.role, ANTHROPIC_ROLES, nextMessageLabel(ctx), ctx);
    if (!Array.isArray(raw.content)) {
      const where = nextMessageLabel(ctx);
      ctx.out.push({ role, content: normalizeContent(raw.content, where, ctx.warnings, (b, at) => normalizeBlockOrUnknown(b, at, ctx.warnings)) });
      continue;
    }
    let pending: ContentBlock[] = [];
    let isEmpty = true;
    for (const block of raw.content) {
      if (isRecord(block) && block.type === "tool_result") {
        if (pending.length > 0) ctx.out.push({ role, content: pending });
        pending = [];
        ctx.out.push(normalizeToolResult(block, ctx));
      } else {
        pending.push(normalizeBlockOrUnknown(block, nextMessageLabel(ctx), ctx.warnings));
      }
      isEmpty = false;
    }
    if (pending.length > 0 || isEmpty) ctx.out.push({ role, content: pending });
  }
}

/**
 * `{type: "tool_result", tool_use_id, content: string | blocks, is_error?}` → a tool message.
 * The native tool message has no error flag, so is_error is carried on its first text block.
 */
function normalizeToolResult(block: Record<string, unknown>, ctx: NormalizeContext): NativeMessage {
  const where = nextMessageLabel(ctx);
  const content = normalizeContent(block.content, where, ctx.warnings, (b, at) => normalizeBlockOrUnknown(b, at, ctx.warnings));
  if (block.is_error === true) {
    const first = content.find((b) => b.type === "text");
    if (first?.type === "text") first.extras = { ...first.extras, is_error: true };
    else content.unshift({ type: "text", text: "", extras: { is_error: true } });
  }
  const message: NativeMessage = { role: "tool", content };
  if (typeof block.tool_use_id === "string") message.tool_call_id = block.tool_use_id;
  return message;
}
