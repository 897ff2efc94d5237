/**
 * One OpenTelemetry span → one trace run operation (a complete post: spans arrive finished).
 *
 * Ids: the trace id (16 bytes) is the run's trace_id as a UUID; a span id (8 bytes) is unique only
 * within its trace, so a run's id is the trace id's first 8 bytes followed by the span id — the
 * same span always gets the same run id, and a parent that arrives in a later batch is found.
 *
 * run_type, model, provider, messages and usage come from whichever convention the span speaks,
 * checked in this order: LangSmith's `langsmith.*`, OpenInference's `openinference.span.kind` /
 * `llm.*`, the Vercel AI SDK's `ai.*`, and the GenAI semantic conventions' `gen_ai.*`. Every
 * attribute no mapping used is kept raw in extra.otel.attributes and named in a warning.
 */
import { jsonObjectOrEmpty, type JsonObject } from "../../domain/json.js";
import type { TraceRunOperation } from "../../domain/trace-run.js";
import { AttributeReader, parseJsonText } from "./attribute-reader.js";
import {
  aiSdkMessages,
  aiSdkResponse,
  genAiMessages,
  type OtelMessage,
  openAiLikeMessage,
  openInferenceMessages,
} from "./otel-messages.js";
import { markUsageKeys, readOtelUsage } from "./otel-usage.js";
import { type OtlpEvent, type OtlpSpan, SPAN_KIND_NAMES } from "./otlp-span.js";

export interface SpanMappingOptions {
  /** The project a request names (the Langsmith-Project header), if any. */
  projectName?: string;
}

const OPEN_INFERENCE_KINDS: Readonly<Record<string, string>> = {
  LLM: "llm",
  EMBEDDING: "embedding",
  TOOL: "tool",
  RETRIEVER: "retriever",
};

const GEN_AI_OPERATIONS: Readonly<Record<string, string>> = {
  chat: "llm",
  text_completion: "llm",
  generate_content: "llm",
  embeddings: "embedding",
  execute_tool: "tool",
};

/** GenAI provider names (and the AI SDK's `openai.chat` style) as LangChain's ls_provider spells them. */
const PROVIDERS: Readonly<Record<string, string>> = {
  "aws.bedrock": "amazon_bedrock",
  "azure.ai.openai": "azure",
  "azure.ai.inference": "azure",
  "gcp.gemini": "google_genai",
  "gcp.gen_ai": "google_genai",
  "gcp.vertex_ai": "google_vertexai",
  google: "google_genai",
  mistral_ai: "mistralai",
  mistral: "mistralai",
  x_ai: "xai",
};

export function uuidOfHex(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function runIdOfSpan(traceId: string, spanId: string): string {
  return uuidOfHex(traceId.slice(0, 16) + spanId);
}

/**
 * Nanoseconds since the epoch (a decimal string, as the decoders give it) → the canonical run
 * time (microseconds); null for 0 (not set) or a time past year 9999. Split as text: the
 * milliseconds fit a double exactly, the nanoseconds do not.
 */
export function nanosToRunTime(nanos: string): string | null {
  if (nanos === "0") return null;
  const padded = nanos.padStart(10, "0");
  const seconds = padded.slice(0, -9);
  // Spans of one export mostly share their second: its date and time are formatted once.
  if (seconds !== lastSeconds) {
    const date = new Date(Number(seconds) * 1000);
    if (Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999) return null;
    lastSeconds = seconds;
    lastSecondText = date.toISOString().slice(0, 19);
  }
  return `${lastSecondText}.${padded.slice(-9, -3)}Z`;
}

let lastSeconds = "";
let lastSecondText = "";

/** Why a span cannot be stored at all (the export then reports it as rejected), or null. */
export function spanRejection(span: OtlpSpan): string | null {
  if (!/^[0-9a-f]{32}$/.test(span.traceId) || /^0+$/.test(span.traceId)) return `span '${span.name}': traceId is missing or all zeros`;
  if (!/^[0-9a-f]{16}$/.test(span.spanId) || /^0+$/.test(span.spanId)) return `span '${span.name}': spanId is missing or all zeros`;
  if (nanosToRunTime(span.startTimeUnixNano) === null) return `span '${span.name}': startTimeUnixNano is missing or out of range`;
  return null;
}

export function spanToRunOperation(span: OtlpSpan, options: SpanMappingOptions = {}): TraceRunOperation {
  const reader = new AttributeReader(span.attributes);
  const warnings: string[] = [];
  const runType = runTypeOf(span, reader);
  const metadata = metadataOf(reader);
  const modelName = firstOf(reader, ["gen_ai.response.model", "ai.response.model", "gen_ai.request.model", "ai.model.id", "llm.model_name"]);
  const provider = providerOf(reader);
  if (runType !== "llm") markUsageKeys(reader);
  if (runType === "llm" || runType === "embedding") {
    if (modelName !== undefined) metadata.ls_model_name ??= modelName;
    if (provider !== undefined) metadata.ls_provider ??= provider;
  }
  const { inputs, outputs } = runType === "llm" ? llmIo(span, reader, warnings) : otherIo(reader);
  const invocationParams = { ...reader.withPrefix("gen_ai.request."), ...reader.withPrefix("ai.settings."), ...jsonObjectOrEmpty(reader.json("llm.invocation_parameters")) };
  const requestedTier = reader.string("openai.request.service_tier", "gen_ai.openai.request.service_tier");
  if (requestedTier !== undefined) invocationParams.service_tier ??= requestedTier;
  const error = errorOf(span);
  const name = reader.string("langsmith.trace.name") ?? (span.name || "span");
  const tags = tagsOf(reader);
  const sessionName = reader.string("langsmith.trace.session_name") ?? options.projectName ?? serviceName(span);
  markInformational(reader);
  const unmapped = reader.unused();
  if (unmapped.length > 0) {
    warnings.push(`OpenTelemetry attributes with no mapping, kept as sent in extra.otel.attributes: ${unmapped.join(", ")}`);
  }
  const extra: JsonObject = {
    metadata,
    otel: {
      trace_id: span.traceId,
      span_id: span.spanId,
      parent_span_id: span.parentSpanId,
      span_kind: SPAN_KIND_NAMES[span.kind] ?? String(span.kind),
      scope: span.scope,
      resource: span.resource,
      // Only what no mapping used: the rest is in the run's own fields (inputs, outputs, metadata …).
      attributes: Object.fromEntries(unmapped.map((key) => [key, span.attributes[key]])),
      links: span.links,
      warnings,
    },
  };
  if (Object.keys(invocationParams).length > 0) extra.invocation_params = invocationParams;
  return {
    id: runIdOfSpan(span.traceId, span.spanId),
    traceId: uuidOfHex(span.traceId),
    parentRunId: span.parentSpanId ? runIdOfSpan(span.traceId, span.parentSpanId) : null,
    name,
    runType,
    status: error !== null ? "error" : nanosToRunTime(span.endTimeUnixNano) === null ? "pending" : "success",
    startTime: nanosToRunTime(span.startTimeUnixNano),
    endTime: nanosToRunTime(span.endTimeUnixNano),
    inputs,
    outputs,
    extra,
    events: span.events.flatMap(eventOf),
    error,
    tags,
    sessionName,
  };
}

function runTypeOf(span: OtlpSpan, reader: AttributeReader): string {
  // Whichever decides, the other conventions' kinds on the span say the same thing.
  reader.markUsed("langsmith.span.kind", "openinference.span.kind", "ai.operationId", "gen_ai.operation.name");
  const langsmith = reader.string("langsmith.span.kind");
  if (langsmith) return langsmith.toLowerCase();
  const openInference = reader.string("openinference.span.kind");
  if (openInference) return OPEN_INFERENCE_KINDS[openInference.toUpperCase()] ?? "chain";
  const aiOperation = reader.string("ai.operationId");
  if (aiOperation) {
    if (/\.do(Generate|Stream)$/.test(aiOperation)) return "llm";
    if (/\.doEmbed$/.test(aiOperation)) return "embedding";
    if (aiOperation === "ai.toolCall") return "tool";
    return "chain";
  }
  const operation = reader.string("gen_ai.operation.name");
  if (operation) return GEN_AI_OPERATIONS[operation.toLowerCase()] ?? "chain";
  // A span with GenAI usage but no operation name is still a model call.
  if (reader.has("gen_ai.usage.input_tokens") || reader.has("gen_ai.usage.prompt_tokens")) return "llm";
  return span.name.startsWith("ai.toolCall") ? "tool" : "chain";
}

/** The first of several attributes naming the same thing; the others present are used too (not unmapped). */
function firstOf(reader: AttributeReader, keys: string[]): string | undefined {
  const value = reader.string(...keys);
  reader.markUsed(...keys);
  return value;
}

function providerOf(reader: AttributeReader): string | undefined {
  const raw = firstOf(reader, ["gen_ai.provider.name", "llm.provider", "gen_ai.system", "llm.system", "ai.model.provider"]);
  if (raw === undefined) return undefined;
  const name = raw.toLowerCase();
  if (PROVIDERS[name]) return PROVIDERS[name];
  // The AI SDK names the provider's API too ("openai.chat", "anthropic.messages").
  const family = name.split(".")[0];
  return PROVIDERS[family] ?? family;
}

function metadataOf(reader: AttributeReader): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    ...jsonObjectOrEmpty(reader.json("metadata")),
    ...reader.withPrefix("ai.telemetry.metadata."),
    ...reader.withPrefix("langsmith.metadata."),
  };
  const conversation = reader.string("gen_ai.conversation.id", "session.id", "langsmith.metadata.session_id");
  if (conversation !== undefined) {
    metadata.session_id ??= conversation;
    metadata.thread_id ??= conversation;
  }
  const user = reader.string("user.id", "enduser.id");
  if (user !== undefined) metadata.user_id ??= user;
  const functionId = reader.string("ai.telemetry.functionId");
  if (functionId !== undefined) metadata.function_id ??= functionId;
  return metadata;
}

function tagsOf(reader: AttributeReader): string[] {
  const tags = reader.get("langsmith.span.tags", "tag.tags");
  if (Array.isArray(tags)) return tags.filter((tag): tag is string => typeof tag === "string");
  if (typeof tags === "string") return tags.split(",").map((tag) => tag.trim()).filter(Boolean);
  return [];
}

function serviceName(span: OtlpSpan): string | undefined {
  const name = span.resource["service.name"];
  return typeof name === "string" && name !== "" && !name.startsWith("unknown_service") ? name : undefined;
}

/** An LLM span's messages and usage, as `{messages}` inputs and `{messages, usage_metadata}` outputs. */
function llmIo(span: OtlpSpan, reader: AttributeReader, warnings: string[]): { inputs: unknown; outputs: unknown } {
  // LangSmith's own exporter sends the run's inputs and outputs whole: they render as any run's.
  const langsmithInputs = reader.json("gen_ai.prompt");
  const langsmithOutputs = reader.json("gen_ai.completion");
  const usage = readOtelUsage(reader, warnings);
  // OpenInference also records the raw provider request and response: the messages above say the
  // same, and the raw text stays in extra.otel.attributes.
  reader.markUsed("input.value", "input.mime_type", "output.value", "output.mime_type");
  const input = inputMessages(span, reader);
  const output = outputMessages(span, reader);
  let inputs: unknown = input.length > 0 ? { messages: input } : undefined;
  let outputs: Record<string, unknown> | undefined = output.length > 0 ? { messages: output } : undefined;
  if (inputs === undefined && langsmithInputs !== undefined) inputs = objectOrWrapped(langsmithInputs, "input");
  if (outputs === undefined && langsmithOutputs !== undefined) outputs = objectOrWrapped(langsmithOutputs, "output");
  // A cost the provider reported (OpenRouter through Langfuse-style or OpenInference attributes) is explicit.
  const cost = reader.number("gen_ai.usage.cost", "llm.cost.total");
  if (usage !== null || cost !== undefined) {
    outputs = { ...outputs, usage_metadata: { ...usage, ...(cost !== undefined && cost >= 0 ? { total_cost: cost } : {}) } };
  }
  // The tier the provider served the call in prices it (tiered prices): kept where OpenAI's own
  // response carries it, so identify-service-tier.ts reads both shapes alike.
  const serviceTier = reader.string("openai.response.service_tier", "gen_ai.openai.response.service_tier");
  if (serviceTier !== undefined) outputs = { ...outputs, service_tier: serviceTier };
  return { inputs, outputs };
}

function inputMessages(span: OtlpSpan, reader: AttributeReader): OtelMessage[] {
  const genAi = reader.json("gen_ai.input.messages");
  const system = reader.json("gen_ai.system_instructions");
  if (genAi !== undefined || system !== undefined) return genAiMessages(genAi, system);
  const aiSdk = reader.json("ai.prompt.messages");
  if (aiSdk !== undefined) return aiSdkMessages(aiSdk);
  const openInference = reader.indexed("llm.input_messages.");
  if (openInference.length > 0) return openInferenceMessages(openInference);
  const openLlmetry = reader.indexed("gen_ai.prompt.");
  if (openLlmetry.length > 0) return openLlmetry.map((message) => openAiLikeMessage(message, "user"));
  // The older GenAI conventions: one event per message.
  return span.events
    .filter((event) => /^gen_ai\.(system|user|assistant|tool)\.message$/.test(event.name))
    .map((event) => openAiLikeMessage(event.attributes, event.name.split(".")[1]));
}

function outputMessages(span: OtlpSpan, reader: AttributeReader): OtelMessage[] {
  const genAi = reader.json("gen_ai.output.messages");
  if (genAi !== undefined) return genAiMessages(genAi, undefined);
  const text = reader.get("ai.response.text");
  const toolCalls = reader.get("ai.response.toolCalls");
  const reasoning = reader.get("ai.response.reasoning");
  if (text !== undefined || toolCalls !== undefined || reasoning !== undefined) return aiSdkResponse(text, toolCalls, reasoning);
  const openInference = reader.indexed("llm.output_messages.");
  if (openInference.length > 0) return openInferenceMessages(openInference);
  const openLlmetry = reader.indexed("gen_ai.completion.");
  if (openLlmetry.length > 0) return openLlmetry.map((message) => openAiLikeMessage(message, "assistant"));
  return span.events
    .filter((event) => event.name === "gen_ai.choice")
    .map((event) => openAiLikeMessage(jsonObjectOrEmpty(parseJsonText(event.attributes.message)), "assistant"));
}

/** Chain, tool, retriever … spans: what they were given and returned, as the instrumentation recorded it. */
function otherIo(reader: AttributeReader): { inputs: unknown; outputs: unknown } {
  const toolName = reader.string("gen_ai.tool.name", "ai.toolCall.name", "tool.name");
  const toolCallId = reader.string("gen_ai.tool.call.id", "ai.toolCall.id");
  const args = reader.json("gen_ai.tool.call.arguments", "ai.toolCall.args", "ai.toolCall.input", "tool.parameters");
  const result = reader.json("gen_ai.tool.call.result", "ai.toolCall.result", "ai.toolCall.output");
  const input = reader.json("input.value", "gen_ai.prompt", "ai.prompt");
  const output = reader.json("output.value", "gen_ai.completion", "ai.response.text", "ai.response.object");
  reader.markUsed("input.mime_type", "output.mime_type");
  const inputs =
    input !== undefined
      ? objectOrWrapped(input, "input")
      : args !== undefined || toolName !== undefined
        ? { ...(toolName ? { name: toolName } : {}), ...(toolCallId ? { tool_call_id: toolCallId } : {}), args: args ?? null }
        : undefined;
  const outputs = output !== undefined ? objectOrWrapped(output, "output") : result !== undefined ? { output: result } : undefined;
  return { inputs, outputs };
}

function objectOrWrapped(value: unknown, key: string): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { [key]: value };
}

/** Attributes that describe the span without needing a field of their own (so no warning). */
function markInformational(reader: AttributeReader): void {
  reader.markUsedIn(INFORMATIONAL);
  reader.withPrefix("ai.request.headers.");
  reader.withPrefix("llm.tools.");
  reader.withPrefix("ai.response.providerMetadata.");
}

const INFORMATIONAL: ReadonlySet<string> = new Set([
  "operation.name",
  "resource.name",
  "ai.response.id",
  "ai.response.timestamp",
  "ai.response.finishReason",
  "ai.response.providerMetadata",
  "ai.response.msToFirstChunk",
  "ai.response.msToFinish",
  "ai.response.avgOutputTokensPerSecond",
  "ai.response.avgCompletionTokensPerSecond",
  "ai.prompt.format",
  "ai.prompt.tools",
  "ai.prompt.toolChoice",
  "ai.request.headers.user-agent",
  "gen_ai.response.id",
  "gen_ai.response.finish_reasons",
  "llm.tools",
  "llm.finish_reason",
  "langsmith.trace.name",
  "langsmith.span.id",
  "langsmith.trace.id",
  "langsmith.span.dotted_order",
  "langsmith.span.parent_id",
]);

/** Status ERROR, or an `exception` event, is the run's error. */
function errorOf(span: OtlpSpan): string | null {
  const exception = span.events.find((event) => event.name === "exception");
  if (span.status.code !== 2 && !exception) return null;
  const type = exception?.attributes["exception.type"];
  const message = exception?.attributes["exception.message"] ?? span.status.message;
  const text = [type, message].filter((part) => typeof part === "string" && part !== "").join(": ");
  return text || "error";
}

/** Events as LangSmith runs carry them; the AI SDK's first streamed chunk is also the run's first token. */
function eventOf(event: OtlpEvent): JsonObject[] {
  const time = nanosToRunTime(event.timeUnixNano);
  const mapped: JsonObject = { name: event.name, time, kwargs: event.attributes };
  if (event.name === "ai.stream.firstChunk") return [mapped, { name: "new_token", time, kwargs: { source: event.name } }];
  return [mapped];
}
