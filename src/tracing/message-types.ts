/**
 * The native trace message format (seed §2, "LLM trace message format"). Every supported input
 * format (native, OpenAI chat completions, Anthropic messages, LangChain-serialized messages) is
 * normalized into these shapes for rendering; the run's raw inputs/outputs are stored verbatim
 * next to them, so the rendered view may be lossy but the record never is.
 */

export type ContentBlock =
  | { type: "text"; text: string; annotations?: unknown[]; extras?: Record<string, unknown> }
  | { type: "reasoning"; text: string; extras?: Record<string, unknown> }
  | { type: "image" | "file" | "audio" | "video"; url?: string; base64?: string; id?: string; mime_type?: string }
  | { type: "tool_call"; name?: string; args: Record<string, unknown>; id?: string }
  | { type: "server_tool_call"; id: string; name: string; args: Record<string, unknown> }
  | { type: "server_tool_result"; tool_call_id: string; id?: string; status: "success" | "error"; output?: unknown }
  // A block we could not classify: kept verbatim (with a warning), never dropped.
  | { type: "unknown"; original: unknown };

export type MediaBlock = Extract<ContentBlock, { type: "image" | "file" | "audio" | "video" }>;
export type MediaType = MediaBlock["type"];

export type MessageRole = "system" | "reasoning" | "user" | "assistant" | "tool";

export interface NativeMessage {
  role: MessageRole;
  content: ContentBlock[];
  /** Only on tool messages: the id of the tool_call block this message answers. */
  tool_call_id?: string;
  /** As given on the message; extractUsage filters it against USAGE_METADATA_KEYS. */
  usage_metadata?: Record<string, unknown>;
  name?: string;
}

/**
 * LangChain-serialized messages render as "native": LangChain's v1 content blocks are what the
 * native format is modelled on, and their kwargs are normalized through the same block rules.
 */
export type MessageFormat = "native" | "openai" | "anthropic" | "unrecognized";

export interface RenderedMessages {
  format: MessageFormat;
  input_messages: NativeMessage[];
  output_messages: NativeMessage[];
  warnings: string[];
}

export const MEDIA_TYPES: readonly MediaType[] = ["image", "file", "audio", "video"];
export const MESSAGE_ROLES: readonly MessageRole[] = ["system", "reasoning", "user", "assistant", "tool"];
