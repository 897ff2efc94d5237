/**
 * OpenAI chat completions: `{messages: [{role, content: string | parts[] | null}], model?}` and
 * the `message` objects inside a completion's `choices`. Tool calls live beside the content
 * (`tool_calls`, legacy `function_call`) and become tool_call blocks after the content blocks.
 */
import type { ContentBlock, MessageRole, NativeMessage } from "../message-types.js";
import { copyMessageExtras } from "./native.js";
import {
  type NormalizeContext,
  appendUnparsableMessage,
  isRecord,
  mediaBlock,
  mediaFieldsFromUrl,
  nextMessageLabel,
  normalizeContent,
  optionalString,
  parseToolArguments,
  resolveRole,
  unknownBlock,
} from "./shared.js";

const OPENAI_ROLES: Readonly<Record<string, MessageRole>> = {
  system: "system",
  // o-series models take instructions as "developer"; for rendering it is a system prompt.
  developer: "system",
  user: "user",
  assistant: "assistant",
  tool: "tool",
  // Legacy function-calling result message: `{role: "function", name, content}`.
  function: "tool",
};

const OPENAI_ONLY_PARTS = new Set(["image_url", "input_audio", "refusal"]);

/** Features no other format has: used to tell OpenAI payloads apart (see render-messages). */
export function hasOpenAIMarkers(messages: readonly unknown[]): boolean {
  return messages.some(
    (message) =>
      isRecord(message) &&
      (message.role === "developer" ||
        message.role === "function" ||
        Array.isArray(message.tool_calls) ||
        isRecord(message.function_call) ||
        (Array.isArray(message.content) &&
          message.content.some(
            (part) => isRecord(part) && (OPENAI_ONLY_PARTS.has(String(part.type)) || isRecord(part.file)),
          ))),
  );
}

/** Normalizes one content part; null when it is not an OpenAI part type. */
export function normalizeOpenAIPart(raw: unknown, where: string, warnings: string[]): ContentBlock | null {
  if (!isRecord(raw)) return null;
  switch (raw.type) {
    case "text":
      return typeof raw.text === "string" ? { type: "text", text: raw.text } : null;
    case "refusal":
      return typeof raw.refusal === "string" ? refusalBlock(raw.refusal) : null;
    case "image_url": {
      // `image_url` is `{url, detail?}`; older LangChain code also sends the bare URL string.
      const url = isRecord(raw.image_url) ? optionalString(raw.image_url.url) : optionalString(raw.image_url);
      return mediaBlock("image", url === undefined ? {} : mediaFieldsFromUrl(url), where, warnings);
    }
    case "input_audio": {
      const audio = isRecord(raw.input_audio) ? raw.input_audio : {};
      const format = optionalString(audio.format);
      return mediaBlock(
        "audio",
        { base64: optionalString(audio.data), mime_type: format === undefined ? undefined : audioMimeType(format) },
        where,
        warnings,
      );
    }
    case "file": {
      if (!isRecord(raw.file)) return null;
      // `file_data` is documented as a data URL; a bare base64 string is accepted as well.
      const data = optionalString(raw.file.file_data);
      const fields = data === undefined ? {} : data.startsWith("data:") ? mediaFieldsFromUrl(data) : { base64: data };
      return mediaBlock("file", { ...fields, id: optionalString(raw.file.file_id) }, where, warnings);
    }
    default:
      return null;
  }
}

function audioMimeType(format: string): string {
  return format === "mp3" ? "audio/mpeg" : `audio/${format}`;
}

function refusalBlock(text: string): ContentBlock {
  return { type: "text", text, extras: { refusal: true } };
}

/** `tool_calls` entries: `{id, type: "function", function: {name, arguments: JSON string}}`. */
export function normalizeOpenAIToolCall(raw: unknown, where: string, warnings: string[]): ContentBlock {
  if (!isRecord(raw)) return unknownBlock(raw, where, warnings);
  const id = optionalString(raw.id);
  if (isRecord(raw.function)) {
    return withId(
      { type: "tool_call", name: optionalString(raw.function.name), args: parseToolArguments(raw.function.arguments, where, warnings) },
      id,
    );
  }
  // Custom (free-form) tools carry one string input instead of JSON arguments.
  if (isRecord(raw.custom)) {
    return withId({ type: "tool_call", name: optionalString(raw.custom.name), args: { input: raw.custom.input } }, id);
  }
  return unknownBlock(raw, where, warnings);
}

function withId(block: ContentBlock & { type: "tool_call" }, id: string | undefined): ContentBlock {
  if (block.name === undefined) delete block.name;
  if (id !== undefined) block.id = id;
  return block;
}

export function appendOpenAIMessages(messages: readonly unknown[], ctx: NormalizeContext): void {
  for (const raw of messages) {
    if (!isRecord(raw)) {
      appendUnparsableMessage(raw, ctx);
      continue;
    }
    ctx.out.push(normalizeOpenAIMessage(raw, ctx));
  }
}

function normalizeOpenAIMessage(raw: Record<string, unknown>, ctx: NormalizeContext): NativeMessage {
  const where = nextMessageLabel(ctx);
  const { warnings } = ctx;
  const content = normalizeContent(
    raw.content,
    where,
    warnings,
    (part, at) => normalizeOpenAIPart(part, at, warnings) ?? unknownBlock(part, at, warnings),
  );
  // Response messages carry citations (`url_citation`) beside the text rather than in a part.
  const firstText = content.find((block) => block.type === "text");
  if (firstText?.type === "text" && Array.isArray(raw.annotations) && raw.annotations.length > 0) {
    firstText.annotations = raw.annotations;
  }
  if (typeof raw.refusal === "string" && raw.refusal !== "") content.push(refusalBlock(raw.refusal));
  if (Array.isArray(raw.tool_calls)) {
    for (const call of raw.tool_calls) content.push(normalizeOpenAIToolCall(call, where, warnings));
  }
  if (isRecord(raw.function_call)) {
    // Legacy function calling has no call id; the result comes back as a `function` message.
    content.push(normalizeOpenAIToolCall({ function: raw.function_call }, where, warnings));
  }
  const message: NativeMessage = { role: resolveRole(raw.role, OPENAI_ROLES, where, ctx), content };
  copyMessageExtras(raw, message);
  return message;
}
