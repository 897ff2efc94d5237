/**
 * The message shapes OpenTelemetry instrumentations write, turned into native-format messages
 * (`{role, content: [blocks]}`) that render-messages.ts then validates and renders like any
 * LangSmith-wire run: the GenAI semantic conventions' parts, the Vercel AI SDK's prompt messages,
 * OpenInference's flattened messages and the OpenAI-like shapes of the older GenAI events and
 * OpenLLMetry. Pure; whatever a converter does not recognize is passed on as an unknown block,
 * which the renderer keeps verbatim with a warning.
 */
import { parseJsonText } from "./attribute-reader.js";

type Obj = Record<string, unknown>;
export interface OtelMessage {
  role: string;
  content: Obj[];
  tool_call_id?: string;
  name?: string;
}

const ROLES: Readonly<Record<string, string>> = {
  developer: "system",
  human: "user",
  ai: "assistant",
  model: "assistant",
  function: "tool",
};

function isObject(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function role(value: unknown): string {
  const name = typeof value === "string" ? value.toLowerCase() : "user";
  return ROLES[name] ?? name;
}

/** Text of any value: strings as they are, anything else as JSON. */
function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value ?? null);
}

function toolArgs(value: unknown): Obj {
  const parsed = parseJsonText(value);
  if (isObject(parsed)) return parsed;
  return parsed === undefined || parsed === null || parsed === "" ? {} : { input: parsed };
}

function textBlock(text: string): Obj {
  return { type: "text", text };
}

function toolCallBlock(id: unknown, name: unknown, args: unknown): Obj {
  return { type: "tool_call", id: str(id), name: str(name), args: toolArgs(args) };
}

function mediaBlock(modality: unknown, mimeType: unknown, source: Obj): Obj {
  const kind = typeof modality === "string" && ["image", "audio", "video"].includes(modality) ? modality : "file";
  return { type: kind, mime_type: str(mimeType), ...source };
}

// GenAI semantic conventions: gen_ai.input.messages / gen_ai.output.messages / gen_ai.system_instructions

function genAiPart(part: unknown): Obj {
  if (!isObject(part)) return { type: "unknown_part", value: part };
  switch (part.type) {
    case "text":
      return textBlock(asText(part.content));
    case "reasoning":
      return { type: "reasoning", text: asText(part.content) };
    case "tool_call":
      return toolCallBlock(part.id, part.name, part.arguments);
    case "blob":
      return mediaBlock(part.modality, part.mime_type, { base64: str(part.content) });
    case "uri":
      return mediaBlock(part.modality, part.mime_type, { url: str(part.uri) });
    case "file":
      return mediaBlock(part.modality, part.mime_type, { id: str(part.file_id) });
    default:
      return part;
  }
}

/** One GenAI message; a tool message's responses become one native tool message each. */
function genAiMessage(message: unknown): OtelMessage[] {
  if (!isObject(message)) return [{ role: "user", content: [{ type: "unknown_message", value: message }] }];
  const parts = Array.isArray(message.parts) ? message.parts : [];
  const responses = parts.filter((part) => isObject(part) && part.type === "tool_call_response") as Obj[];
  if (responses.length > 0) {
    return responses.map((part) => ({ role: "tool", tool_call_id: str(part.id), content: [textBlock(asText(part.response ?? part.result))] }));
  }
  return [{ role: role(message.role), content: parts.map(genAiPart), name: str(message.name) }];
}

export function genAiMessages(messages: unknown, systemInstructions: unknown): OtelMessage[] {
  const out: OtelMessage[] = [];
  if (Array.isArray(systemInstructions) && systemInstructions.length > 0) {
    out.push({ role: "system", content: systemInstructions.map(genAiPart) });
  } else if (typeof systemInstructions === "string" && systemInstructions !== "") {
    out.push({ role: "system", content: [textBlock(systemInstructions)] });
  }
  if (Array.isArray(messages)) for (const message of messages) out.push(...genAiMessage(message));
  return out;
}

// OpenAI-like messages: the older GenAI events, OpenLLMetry's gen_ai.prompt.N.*

function openAiContent(content: unknown): Obj[] {
  const parsed = parseJsonText(content);
  if (typeof parsed === "string") return [textBlock(parsed)];
  if (!Array.isArray(parsed)) return parsed === undefined || parsed === null ? [] : [textBlock(asText(parsed))];
  return parsed.map((part) => {
    if (!isObject(part)) return textBlock(asText(part));
    if (part.type === "text" && typeof part.text === "string") return textBlock(part.text);
    const imageUrl = isObject(part.image_url) ? part.image_url.url : part.image_url;
    if (part.type === "image_url" && typeof imageUrl === "string") return { type: "image", url: imageUrl };
    return part;
  });
}

function openAiToolCalls(toolCalls: unknown): Obj[] {
  const parsed = parseJsonText(toolCalls);
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(isObject).map((call) => {
    const fn = isObject(call.function) ? call.function : call;
    return toolCallBlock(call.id, fn.name, fn.arguments);
  });
}

export function openAiLikeMessage(message: Obj, defaultRole: string): OtelMessage {
  const messageRole = role(message.role ?? defaultRole);
  const content = [...openAiContent(message.content), ...openAiToolCalls(message.tool_calls)];
  const toolCallId = str(message.tool_call_id) ?? (messageRole === "tool" ? str(message.id) : undefined);
  return { role: messageRole, content, tool_call_id: toolCallId, name: str(message.name) };
}

// Vercel AI SDK: ai.prompt.messages, ai.response.text / ai.response.toolCalls

function aiSdkPart(part: unknown): Obj {
  if (typeof part === "string") return textBlock(part);
  if (!isObject(part)) return { type: "unknown_part", value: part };
  switch (part.type) {
    case "text":
      return textBlock(asText(part.text));
    case "reasoning":
      return { type: "reasoning", text: asText(part.text) };
    case "tool-call":
      return toolCallBlock(part.toolCallId, part.toolName, part.input ?? part.args);
    case "image":
    case "file": {
      const data = part.data ?? part.image;
      const source = typeof data === "string" && /^(https?|data):/.test(data) ? { url: data } : { base64: str(data) };
      return mediaBlock(part.type === "image" ? "image" : String(part.mediaType ?? part.mimeType ?? "").split("/")[0], part.mediaType ?? part.mimeType, source);
    }
    default:
      return part;
  }
}

/** A tool result's output: LanguageModelV2+ `{type: "text" | "json", value}`, older SDKs the bare result. */
function aiSdkToolOutput(part: Obj): string {
  const output = part.output ?? part.result;
  if (isObject(output) && "value" in output && typeof output.type === "string") return asText(output.value);
  return asText(output);
}

export function aiSdkMessages(messages: unknown): OtelMessage[] {
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((message): OtelMessage[] => {
    if (!isObject(message)) return [{ role: "user", content: [{ type: "unknown_message", value: message }] }];
    const messageRole = role(message.role);
    const parts = typeof message.content === "string" ? [message.content] : Array.isArray(message.content) ? message.content : [];
    if (messageRole === "tool") {
      return parts.filter(isObject).map((part) => ({ role: "tool", tool_call_id: str(part.toolCallId), content: [textBlock(aiSdkToolOutput(part))] }));
    }
    return [{ role: messageRole, content: parts.map(aiSdkPart) }];
  });
}

export function aiSdkResponse(text: unknown, toolCalls: unknown, reasoning: unknown): OtelMessage[] {
  const content: Obj[] = [];
  if (typeof reasoning === "string" && reasoning !== "") content.push({ type: "reasoning", text: reasoning });
  if (typeof text === "string" && text !== "") content.push(textBlock(text));
  const calls = parseJsonText(toolCalls);
  if (Array.isArray(calls)) for (const call of calls.filter(isObject)) content.push(toolCallBlock(call.toolCallId, call.toolName, call.input ?? call.args));
  return content.length > 0 ? [{ role: "assistant", content }] : [];
}

// OpenInference: llm.input_messages.N.message.{role, content, contents, tool_calls, tool_call_id}

function openInferenceContent(content: unknown): Obj {
  const item = isObject(content) && isObject(content.message_content) ? content.message_content : content;
  if (!isObject(item)) return { type: "unknown_part", value: content };
  if (item.type === "text") return textBlock(asText(item.text));
  const image = isObject(item.image) && isObject(item.image.image) ? item.image.image : undefined;
  if (item.type === "image" && typeof image?.url === "string") return { type: "image", url: image.url };
  return item;
}

export function openInferenceMessages(entries: readonly Obj[]): OtelMessage[] {
  return entries.map((entry) => {
    const message = isObject(entry.message) ? entry.message : entry;
    const messageRole = role(message.role);
    const content: Obj[] = [];
    if (typeof message.content === "string") content.push(textBlock(message.content));
    if (Array.isArray(message.contents)) content.push(...message.contents.map(openInferenceContent));
    if (Array.isArray(message.tool_calls)) {
      for (const entryCall of message.tool_calls) {
        const call = isObject(entryCall) && isObject(entryCall.tool_call) ? entryCall.tool_call : entryCall;
        if (!isObject(call)) continue;
        const fn = isObject(call.function) ? call.function : {};
        content.push(toolCallBlock(call.id, fn.name, fn.arguments));
      }
    }
    return { role: messageRole, content, tool_call_id: str(message.tool_call_id), name: str(message.name) };
  });
}
