/**
 * LangChain-serialized messages, as the LangChain tracers (JS and Python) send them:
 * `{lc: 1, type: "constructor", id: [..., "AIMessage"], kwargs: {content, tool_calls, ...}}`,
 * plus the plain-dict forms `{type: "human", content}` and `{type: "human", data: {...}}`.
 * They render as format "native" (see MessageFormat). A message's content is whatever its
 * provider integration produced (OpenAI parts, Anthropic blocks, LangChain standard blocks), so
 * blocks go through every dialect, native first.
 */
import type { ContentBlock, MessageRole, NativeMessage } from "../message-types.js";
import { normalizeAnthropicBlock } from "./anthropic.js";
import { copyMessageExtras, normalizeNativeBlock } from "./native.js";
import { normalizeOpenAIPart, normalizeOpenAIToolCall } from "./openai.js";
import {
  type NormalizeContext,
  appendUnparsableMessage,
  isRecord,
  nextMessageLabel,
  normalizeContent,
  optionalString,
  parseToolArguments,
  resolveRole,
  unknownBlock,
} from "./shared.js";

/** Class names (last element of `id`, "Chunk" suffix removed) and dict `type`s → role. */
const LANGCHAIN_ROLES: Readonly<Record<string, MessageRole>> = {
  HumanMessage: "user",
  AIMessage: "assistant",
  SystemMessage: "system",
  ToolMessage: "tool",
  FunctionMessage: "tool",
  human: "user",
  ai: "assistant",
  system: "system",
  developer: "system",
  tool: "tool",
  function: "tool",
};

/** Roles a ChatMessage (`{role}` chosen by the caller) may carry. */
const CHAT_MESSAGE_ROLES: Readonly<Record<string, MessageRole>> = {
  ...LANGCHAIN_ROLES,
  user: "user",
  assistant: "assistant",
  reasoning: "reasoning",
};

const DICT_TYPES = new Set(["human", "ai", "system", "developer", "tool", "function", "chat", "generic"]);

export function isLangChainSerialized(raw: unknown): raw is { id: unknown[]; kwargs: Record<string, unknown> } {
  return isRecord(raw) && raw.lc === 1 && raw.type === "constructor" && Array.isArray(raw.id) && isRecord(raw.kwargs);
}

function isLangChainDict(raw: unknown): raw is Record<string, unknown> {
  return (
    isRecord(raw) &&
    !("role" in raw) &&
    typeof raw.type === "string" &&
    DICT_TYPES.has(raw.type) &&
    ("content" in raw || isRecord(raw.data))
  );
}

export function isLangChainMessage(raw: unknown): boolean {
  return isLangChainSerialized(raw) || isLangChainDict(raw);
}

/** A block from any dialect; `unknown` only when none of them knows it. */
export function normalizeAnyBlock(raw: unknown, where: string, warnings: string[]): ContentBlock {
  return (
    normalizeNativeBlock(raw, where, warnings) ??
    normalizeOpenAIPart(raw, where, warnings) ??
    normalizeAnthropicBlock(raw, where, warnings) ??
    unknownBlock(raw, where, warnings)
  );
}

export function appendLangChainMessages(messages: readonly unknown[], ctx: NormalizeContext): void {
  for (const raw of messages) {
    if (isLangChainSerialized(raw)) {
      const className = String(raw.id[raw.id.length - 1]).replace(/Chunk$/, "");
      ctx.out.push(normalizeFields(raw.kwargs, className, ctx));
    } else if (isLangChainDict(raw)) {
      const fields = isRecord(raw.data) ? raw.data : raw;
      ctx.out.push(normalizeFields(fields, String(raw.type), ctx));
    } else if (isRecord(raw)) {
      // A `{role, content}` message mixed into a LangChain list (LangGraph accepts both).
      ctx.out.push(normalizeFields(raw, "chat", ctx));
    } else {
      appendUnparsableMessage(raw, ctx);
    }
  }
}

function normalizeFields(fields: Record<string, unknown>, kind: string, ctx: NormalizeContext): NativeMessage {
  const where = nextMessageLabel(ctx);
  const { warnings } = ctx;
  const isChat = kind === "ChatMessage" || kind === "chat" || kind === "generic";
  const role = isChat
    ? resolveRole(fields.role, CHAT_MESSAGE_ROLES, where, ctx)
    : resolveRole(kind, LANGCHAIN_ROLES, where, ctx);
  const content = normalizeContent(fields.content, where, warnings, (block, at) => normalizeAnyBlock(block, at, warnings));
  appendToolCalls(fields, content, where, warnings);
  const message: NativeMessage = { role, content };
  copyMessageExtras(fields, message);
  return message;
}

/**
 * Tool calls appear in `tool_calls` (parsed), in `invalid_tool_calls` (arguments that failed
 * to parse), and in older versions only in `additional_kwargs` (OpenAI's raw shape). Anthropic
 * and v1 messages also repeat them as content blocks; a call already present by id is skipped.
 */
function appendToolCalls(fields: Record<string, unknown>, content: ContentBlock[], where: string, warnings: string[]): void {
  const seen = new Set(content.flatMap((block) => (block.type === "tool_call" && block.id !== undefined ? [block.id] : [])));
  const add = (block: ContentBlock): void => {
    if (block.type === "tool_call" && block.id !== undefined) {
      if (seen.has(block.id)) return;
      seen.add(block.id);
    }
    content.push(block);
  };
  const additional = isRecord(fields.additional_kwargs) ? fields.additional_kwargs : {};
  if (Array.isArray(fields.tool_calls)) {
    for (const call of fields.tool_calls) add(normalizeLangChainToolCall(call, where, warnings));
  } else if (Array.isArray(additional.tool_calls)) {
    for (const call of additional.tool_calls) add(normalizeOpenAIToolCall(call, where, warnings));
  }
  if (Array.isArray(fields.invalid_tool_calls)) {
    for (const call of fields.invalid_tool_calls) add(normalizeLangChainToolCall(call, where, warnings));
  }
  if (isRecord(additional.function_call)) add(normalizeOpenAIToolCall({ function: additional.function_call }, where, warnings));
}

/** `{name, args, id, type?: "tool_call"}`; in invalid_tool_calls `args` is the raw string. */
function normalizeLangChainToolCall(raw: unknown, where: string, warnings: string[]): ContentBlock {
  if (!isRecord(raw)) return unknownBlock(raw, where, warnings);
  const block: ContentBlock = { type: "tool_call", args: parseToolArguments(raw.args, where, warnings) };
  const name = optionalString(raw.name);
  const id = optionalString(raw.id);
  if (name !== undefined) block.name = name;
  if (id !== undefined) block.id = id;
  return block;
}
