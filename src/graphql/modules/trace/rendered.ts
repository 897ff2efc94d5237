import {
  MEDIA_TYPES,
  MESSAGE_ROLES,
  type ContentBlock,
  type MediaBlock as MediaBlockValue,
  type NativeMessage,
  type RenderedMessages,
} from "../../../tracing/message-types.js";
import { builder } from "../../builder.js";
import { enumValuesOf } from "../enums.js";

/**
 * A trace run's messages normalized into the native format (SPEC §6): OpenAI, Anthropic and
 * LangChain messages all render as messages of typed content blocks. The run's verbatim inputs
 * and outputs stay available as JSON beside them.
 */

type BlockOf<Type extends ContentBlock["type"]> = Extract<ContentBlock, { type: Type }>;

export const RenderedMessagesRef = builder.objectRef<RenderedMessages>("RenderedMessages");
const MessageRef = builder.objectRef<NativeMessage>("Message");

const MessageFormat = builder.enumType("MessageFormat", {
  description: "The format a run's messages were recognized as (LangChain-serialized messages render as NATIVE).",
  values: enumValuesOf(["native", "openai", "anthropic", "unrecognized"] as const),
});
const MessageRole = builder.enumType("MessageRole", { values: enumValuesOf(MESSAGE_ROLES) });
const MediaKind = builder.enumType("MediaKind", { values: enumValuesOf(MEDIA_TYPES) });
const ServerToolResultStatus = builder.enumType("ServerToolResultStatus", {
  values: enumValuesOf(["success", "error"] as const),
});

const TextBlockRef = builder.objectRef<BlockOf<"text">>("TextBlock").implement({
  fields: (t) => ({
    text: t.exposeString("text"),
    annotations: t.field({
      type: "JSON",
      nullable: true,
      description: "Citations and other annotations, as the provider sent them.",
      resolve: (block) => block.annotations ?? null,
    }),
    extras: t.field({
      type: "JSON",
      nullable: true,
      description: "Provider-specific fields, e.g. {refusal: true}.",
      resolve: (block) => block.extras ?? null,
    }),
  }),
});

const ReasoningBlockRef = builder.objectRef<BlockOf<"reasoning">>("ReasoningBlock").implement({
  fields: (t) => ({
    text: t.exposeString("text"),
    extras: t.field({ type: "JSON", nullable: true, resolve: (block) => block.extras ?? null }),
  }),
});

const MediaBlockRef = builder.objectRef<MediaBlockValue>("MediaBlock").implement({
  description: "An image, file, audio or video: by URL or inline base64 (either), or by provider file id.",
  fields: (t) => ({
    kind: t.field({ type: MediaKind, resolve: (block) => block.type }),
    url: t.string({ nullable: true, resolve: (block) => block.url ?? null }),
    base64: t.string({ nullable: true, resolve: (block) => block.base64 ?? null }),
    id: t.string({ nullable: true, description: "A provider file id.", resolve: (block) => block.id ?? null }),
    mimeType: t.string({ nullable: true, resolve: (block) => block.mime_type ?? null }),
  }),
});

const ToolCallBlockRef = builder.objectRef<BlockOf<"tool_call">>("ToolCallBlock").implement({
  description: "The model asking for a tool call (OpenAI tool_calls, Anthropic tool_use).",
  fields: (t) => ({
    id: t.string({ nullable: true, resolve: (block) => block.id ?? null }),
    name: t.string({ nullable: true, resolve: (block) => block.name ?? null }),
    args: t.field({ type: "JSON", description: "The arguments, parsed from JSON.", resolve: (block) => block.args ?? {} }),
  }),
});

const ServerToolCallBlockRef = builder.objectRef<BlockOf<"server_tool_call">>("ServerToolCallBlock").implement({
  description: "A tool the provider ran itself (web search, code execution …).",
  // id and name are nullable as on ToolCallBlock: union members' same-named fields must agree.
  fields: (t) => ({
    id: t.exposeString("id", { nullable: true }),
    name: t.exposeString("name", { nullable: true }),
    args: t.field({ type: "JSON", resolve: (block) => block.args ?? {} }),
  }),
});

const ServerToolResultBlockRef = builder.objectRef<BlockOf<"server_tool_result">>("ServerToolResultBlock").implement({
  fields: (t) => ({
    toolCallId: t.string({ resolve: (block) => block.tool_call_id }),
    id: t.string({ nullable: true, resolve: (block) => block.id ?? null }),
    status: t.field({ type: ServerToolResultStatus, resolve: (block) => block.status }),
    output: t.field({ type: "JSON", nullable: true, resolve: (block) => block.output ?? null }),
  }),
});

const UnknownBlockRef = builder.objectRef<ContentBlock>("UnknownBlock").implement({
  description: "A block that could not be classified, kept verbatim (the run has a warning about it).",
  fields: (t) => ({
    original: t.field({
      type: "JSON",
      nullable: true,
      // Blocks of a type this schema does not know (stored by a newer normalizer) show whole.
      resolve: (block) => (block.type === "unknown" ? block.original : block) ?? null,
    }),
  }),
});

const BLOCK_TYPES = {
  text: TextBlockRef,
  reasoning: ReasoningBlockRef,
  image: MediaBlockRef,
  file: MediaBlockRef,
  audio: MediaBlockRef,
  video: MediaBlockRef,
  tool_call: ToolCallBlockRef,
  server_tool_call: ServerToolCallBlockRef,
  server_tool_result: ServerToolResultBlockRef,
  unknown: UnknownBlockRef,
} as const;

const ContentBlockUnion = builder.unionType("ContentBlock", {
  description: "One typed block of a message's content; select the fields of each type with `... on TextBlock`.",
  types: [
    TextBlockRef,
    ReasoningBlockRef,
    MediaBlockRef,
    ToolCallBlockRef,
    ServerToolCallBlockRef,
    ServerToolResultBlockRef,
    UnknownBlockRef,
  ],
  resolveType: (block) => (Object.hasOwn(BLOCK_TYPES, block.type) ? BLOCK_TYPES[block.type] : UnknownBlockRef),
});

MessageRef.implement({
  description: "One message in the native format.",
  fields: (t) => ({
    role: t.field({ type: MessageRole, resolve: (message) => message.role }),
    toolCallId: t.string({
      nullable: true,
      description: "Tool messages: the id of the tool call this answers.",
      resolve: (message) => message.tool_call_id ?? null,
    }),
    name: t.string({ nullable: true, resolve: (message) => message.name ?? null }),
    content: t.field({
      type: [ContentBlockUnion],
      resolve: (message) =>
        Array.isArray(message.content) ? message.content : [{ type: "unknown" as const, original: message.content ?? null }],
    }),
    usageMetadata: t.field({
      type: "JSON",
      nullable: true,
      description: "usage_metadata as given on the message.",
      resolve: (message) => message.usage_metadata ?? null,
    }),
  }),
});

RenderedMessagesRef.implement({
  description: "A run's input and output messages normalized into the native format.",
  fields: (t) => ({
    format: t.field({ type: MessageFormat, resolve: (rendered) => rendered.format }),
    inputMessages: t.field({ type: [MessageRef], resolve: (rendered) => rendered.input_messages }),
    outputMessages: t.field({ type: [MessageRef], resolve: (rendered) => rendered.output_messages }),
    warnings: t.stringList({
      description: "What could not be rendered or read as given (unknown blocks, unmatched tool results, usage_metadata fields outside the contract …).",
      resolve: (rendered) => rendered.warnings,
    }),
  }),
});
