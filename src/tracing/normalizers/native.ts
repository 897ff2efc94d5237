/**
 * Native format (seed §2): `{messages: [{role, content: [typed blocks]}]}`. Blocks are validated
 * and copied field by field, so a rendered block never carries unexpected keys. LangChain's
 * standard content blocks (v0.3 `source_type`/`data`, v1 `mimeType`/`fileId`/`reasoning`) are the
 * same vocabulary with different field names, so they are accepted here as aliases.
 */
import type { ContentBlock, MessageRole, NativeMessage } from "../message-types.js";
import { MEDIA_TYPES } from "../message-types.js";
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

const NATIVE_ROLES: Readonly<Record<string, MessageRole>> = {
  system: "system",
  reasoning: "reasoning",
  user: "user",
  assistant: "assistant",
  tool: "tool",
};

const MEDIA = new Set<string>(MEDIA_TYPES);

/** A media block in another dialect's shape (Anthropic `source`, OpenAI `image_url`/`file`). */
function isForeignMedia(block: Record<string, unknown>): boolean {
  return isRecord(block.source) || "image_url" in block || isRecord(block.file);
}

/**
 * True when a block can only be native (used for format detection): other formats have no
 * reasoning/tool_call/server_tool_* block types, and carry media under nested objects.
 */
export function isNativeOnlyBlock(raw: unknown): boolean {
  if (!isRecord(raw) || typeof raw.type !== "string") return false;
  switch (raw.type) {
    case "reasoning":
      return typeof raw.text === "string";
    case "tool_call":
    case "server_tool_call":
    case "server_tool_result":
    case "video":
      return true;
    default:
      return MEDIA.has(raw.type) && !isForeignMedia(raw) && ("url" in raw || "base64" in raw || "id" in raw);
  }
}

export function hasNativeMarkers(messages: readonly unknown[]): boolean {
  return messages.some(
    (message) =>
      isRecord(message) &&
      (message.role === "reasoning" || (Array.isArray(message.content) && message.content.some(isNativeOnlyBlock))),
  );
}

/**
 * Normalizes one native block. Returns null when the block is not a native block type at all
 * (so a caller handling several dialects can try the next one); a native type with a broken
 * shape becomes an `unknown` block with a warning naming what is wrong.
 */
export function normalizeNativeBlock(raw: unknown, where: string, warnings: string[]): ContentBlock | null {
  if (!isRecord(raw) || typeof raw.type !== "string") return null;
  const invalid = (why: string): ContentBlock => {
    warnings.push(`${where}: invalid "${String(raw.type)}" block: ${why} (kept verbatim)`);
    return { type: "unknown", original: raw };
  };
  switch (raw.type) {
    case "text": {
      if (typeof raw.text !== "string") return invalid("text is not a string");
      const block: ContentBlock = { type: "text", text: raw.text };
      if (Array.isArray(raw.annotations)) block.annotations = raw.annotations;
      if (isRecord(raw.extras)) block.extras = raw.extras;
      return block;
    }
    case "reasoning": {
      const text = reasoningText(raw);
      if (text === undefined) return invalid("no reasoning text");
      const block: ContentBlock = { type: "reasoning", text };
      if (isRecord(raw.extras)) block.extras = raw.extras;
      return block;
    }
    case "tool_call": {
      if (!("args" in raw)) warnings.push(`${where}: tool_call block has no args`);
      const block: ContentBlock = { type: "tool_call", args: parseToolArguments(raw.args, where, warnings) };
      if (typeof raw.name === "string") block.name = raw.name;
      if (typeof raw.id === "string") block.id = raw.id;
      return block;
    }
    case "server_tool_call": {
      if (typeof raw.id !== "string" || typeof raw.name !== "string") return invalid("id and name must be strings");
      return { type: "server_tool_call", id: raw.id, name: raw.name, args: parseToolArguments(raw.args, where, warnings) };
    }
    case "server_tool_result": {
      if (typeof raw.tool_call_id !== "string") return invalid("tool_call_id must be a string");
      if (raw.status !== "success" && raw.status !== "error") return invalid('status must be "success" or "error"');
      const block: ContentBlock = { type: "server_tool_result", tool_call_id: raw.tool_call_id, status: raw.status };
      if (typeof raw.id === "string") block.id = raw.id;
      if ("output" in raw) block.output = raw.output;
      return block;
    }
    case "image":
    case "file":
    case "audio":
    case "video": {
      if (isForeignMedia(raw)) return null;
      // LangChain v0.3 data blocks say `source_type: "base64"` and put the payload in `data`.
      const base64 = optionalString(raw.base64) ?? optionalString(raw.data);
      return mediaBlock(
        raw.type,
        {
          url: optionalString(raw.url),
          base64,
          id: optionalString(raw.id) ?? optionalString(raw.fileId) ?? optionalString(raw.file_id),
          mime_type: optionalString(raw.mime_type) ?? optionalString(raw.mimeType),
        },
        where,
        warnings,
      );
    }
    default:
      return null;
  }
}

/** `text` (native), `reasoning` (LangChain v1) or a Responses-API `summary` list. */
function reasoningText(raw: Record<string, unknown>): string | undefined {
  if (typeof raw.text === "string") return raw.text;
  if (typeof raw.reasoning === "string") return raw.reasoning;
  if (Array.isArray(raw.summary)) {
    return raw.summary
      .map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : ""))
      .filter((text) => text !== "")
      .join("\n\n");
  }
  return undefined;
}

export function appendNativeMessages(messages: readonly unknown[], ctx: NormalizeContext): void {
  for (const raw of messages) {
    if (!isRecord(raw)) {
      appendUnparsableMessage(raw, ctx);
      continue;
    }
    const where = nextMessageLabel(ctx);
    const message: NativeMessage = {
      role: resolveRole(raw.role, NATIVE_ROLES, where, ctx),
      content: normalizeContent(
        raw.content,
        where,
        ctx.warnings,
        (block, at) => normalizeNativeBlock(block, at, ctx.warnings) ?? unknownBlock(block, at, ctx.warnings),
      ),
    };
    copyMessageExtras(raw, message);
    ctx.out.push(message);
  }
}

/** tool_call_id (tool messages only, per the seed), name and usage_metadata, as given. */
export function copyMessageExtras(raw: Record<string, unknown>, message: NativeMessage): void {
  if (message.role === "tool" && typeof raw.tool_call_id === "string") message.tool_call_id = raw.tool_call_id;
  if (typeof raw.name === "string") message.name = raw.name;
  if (isRecord(raw.usage_metadata)) message.usage_metadata = raw.usage_metadata;
}
