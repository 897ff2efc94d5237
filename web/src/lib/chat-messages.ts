import { isPlainObject } from "./json-diff.js";

/**
 * Thread state messages in the shapes graphs store them: LangChain message dicts
 * (`{type: "human"|"ai"|"tool"|"system", content, tool_calls, tool_call_id}`, as the server
 * flattens them) or plain chat dicts (`{role: "user"|"assistant", content}`). Content is a string
 * or a list of typed blocks. This turns them into one shape the chat view can draw.
 */

export type ChatRole = "user" | "assistant" | "system" | "tool" | "other";

export interface ToolCall {
  id: string | null;
  name: string;
  args: unknown;
}

export interface ChatMessage {
  /** The message id, or a positional key when the graph stores none. */
  key: string;
  role: ChatRole;
  text: string;
  toolCalls: ToolCall[];
  /** The tool's name on a tool message, or a participant name. */
  name: string | null;
  /** Still arriving token by token. */
  isStreaming: boolean;
}

const ROLE_BY_TYPE: Record<string, ChatRole> = {
  human: "user",
  user: "user",
  ai: "assistant",
  assistant: "assistant",
  AIMessageChunk: "assistant",
  system: "system",
  developer: "system",
  tool: "tool",
  function: "tool",
};

/** The chat messages of a thread's values (`values.messages`), or none when it has none. */
export function messagesOfValues(values: unknown): ChatMessage[] {
  if (!isPlainObject(values) || !Array.isArray(values.messages)) return [];
  return values.messages.map((message, index) => toChatMessage(message, `message-${index}`));
}

export function toChatMessage(raw: unknown, fallbackKey: string): ChatMessage {
  if (typeof raw === "string") return plain(fallbackKey, "user", raw);
  if (Array.isArray(raw) && raw.length === 2 && typeof raw[0] === "string") {
    // LangChain's ["human", "hi"] shorthand.
    return plain(fallbackKey, ROLE_BY_TYPE[raw[0]] ?? "other", contentText(raw[1]));
  }
  if (!isPlainObject(raw)) return plain(fallbackKey, "other", JSON.stringify(raw));
  const kind = String(raw.type ?? raw.role ?? "");
  return {
    key: typeof raw.id === "string" && raw.id ? raw.id : fallbackKey,
    role: ROLE_BY_TYPE[kind] ?? "other",
    text: contentText(raw.content),
    toolCalls: toolCallsOf(raw),
    name: typeof raw.name === "string" ? raw.name : null,
    isStreaming: false,
  };
}

function plain(key: string, role: ChatRole, text: string): ChatMessage {
  return { key, role, text, toolCalls: [], name: null, isStreaming: false };
}

/** The readable text of message content: a string, or the text of its blocks. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content == null ? "" : JSON.stringify(content);
  return content
    .map((block) => {
      if (typeof block === "string") return block;
      if (!isPlainObject(block)) return "";
      if (typeof block.text === "string") return block.text;
      if (block.type === "image_url" || block.type === "image") return "[image]";
      if (block.type === "tool_use") return "";
      return `[${String(block.type ?? "block")}]`;
    })
    .join("");
}

function toolCallsOf(message: Record<string, unknown>): ToolCall[] {
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  return calls.filter(isPlainObject).map((call) => {
    // OpenAI's shape nests name/arguments under `function`; LangChain's is flat.
    const fn = isPlainObject(call.function) ? call.function : null;
    return {
      id: typeof call.id === "string" ? call.id : null,
      name: String(call.name ?? fn?.name ?? "tool"),
      args: call.args ?? fn?.arguments ?? {},
    };
  });
}
