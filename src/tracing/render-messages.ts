/**
 * Renders a run's inputs and outputs as native messages (SPEC §6 `rendered`). Pure and total:
 * it never throws, and whatever it cannot interpret is kept verbatim and explained in
 * `warnings`, because the run itself is stored as received regardless of what rendering makes
 * of it.
 */
import type { MessageFormat, NativeMessage, RenderedMessages } from "./message-types.js";
import { appendAnthropicMessages, appendAnthropicRequest, hasAnthropicMarkers } from "./normalizers/anthropic.js";
import { appendLangChainMessages, isLangChainMessage } from "./normalizers/langchain.js";
import { appendNativeMessages, hasNativeMarkers } from "./normalizers/native.js";
import { appendOpenAIMessages, hasOpenAIMarkers } from "./normalizers/openai.js";
import { type ShapeHint, findInputMessages, findOutputMessages } from "./normalizers/output-shapes.js";
import { type NormalizeContext, type Side, createContext, isRecord } from "./normalizers/shared.js";

type Dialect = "native" | "openai" | "anthropic" | "langchain";

interface Detection {
  dialect: Dialect;
  /** False when nothing format-specific was seen and the dialect is only a default. */
  isCertain: boolean;
}

/**
 * The formats overlap (`{role: "user", content: [{type: "text"}]}` is valid in all three), so a
 * list is classified by features only one format has, checked in this order: LangChain
 * serialization; Anthropic (top-level system, tool_use/thinking/… blocks, `source` media);
 * native (reasoning role, tool_call/server_tool_* blocks, flat media); OpenAI (tool_calls,
 * developer/function roles, image_url/input_audio parts). Without any such feature, string
 * content reads as OpenAI and block arrays as native; both render identically in that case.
 */
function detectDialect(messages: readonly unknown[], hasSystem: boolean): Detection | null {
  if (messages.some(isLangChainMessage)) return { dialect: "langchain", isCertain: true };
  if (!messages.every((message) => isRecord(message) && typeof message.role === "string")) return null;
  if (hasSystem || hasAnthropicMarkers(messages)) return { dialect: "anthropic", isCertain: true };
  if (hasNativeMarkers(messages)) return { dialect: "native", isCertain: true };
  if (hasOpenAIMarkers(messages)) return { dialect: "openai", isCertain: true };
  const hasPlainContent = messages.some((message) => isRecord(message) && !Array.isArray(message.content));
  return { dialect: hasPlainContent ? "openai" : "native", isCertain: false };
}

function formatOf(dialect: Dialect): MessageFormat {
  return dialect === "langchain" ? "native" : dialect;
}

function appendMessages(dialect: Dialect, messages: readonly unknown[], ctx: NormalizeContext): void {
  switch (dialect) {
    case "langchain":
      return appendLangChainMessages(messages, ctx);
    case "anthropic":
      return appendAnthropicMessages(messages, ctx);
    case "openai":
      return appendOpenAIMessages(messages, ctx);
    case "native":
      return appendNativeMessages(messages, ctx);
  }
}

function unrecognized(side: Side, value: unknown, warnings: string[]): null {
  // Absent outputs are normal (the run has not finished); only a present, unknown shape is news.
  if (value !== undefined && value !== null) {
    const expected = side === "input" ? "{messages: [...]}" : "messages, {choices}, {message}, {role, content} or [role, content]";
    warnings.push(`${side}s: unrecognized message format (expected ${expected}); not rendered`);
  }
  return null;
}

interface RenderedSide extends Detection {
  messages: NativeMessage[];
}

function renderInputs(inputs: unknown, warnings: string[]): RenderedSide | null {
  const found = findInputMessages(inputs);
  if (found === null) return unrecognized("input", inputs, warnings);
  const hasSystem = found.system !== undefined && found.system !== null;
  const detection: Detection | null =
    found.hint === "langchain" ? { dialect: "langchain", isCertain: true } : detectDialect(found.messages, hasSystem);
  if (detection === null) return unrecognized("input", inputs, warnings);
  const ctx = createContext("input", warnings);
  if (detection.dialect === "anthropic") appendAnthropicRequest(found.system, found.messages, ctx);
  else appendMessages(detection.dialect, found.messages, ctx);
  return { ...detection, messages: ctx.out };
}

/**
 * Output messages are often too short to show their format (`{role: "assistant", content:
 * "hi"}`); then the shape's hint decides, else the inputs' format.
 */
function renderOutputs(outputs: unknown, inputDialect: Dialect | null, warnings: string[]): RenderedSide | null {
  const found = findOutputMessages(outputs);
  if (found === null) return unrecognized("output", outputs, warnings);
  const detection = detectDialect(found.messages, false);
  if (detection === null) return unrecognized("output", outputs, warnings);
  const fallback: ShapeHint | Dialect = found.hint ?? inputDialect;
  const dialect = detection.isCertain || fallback === null ? detection.dialect : fallback;
  const ctx = createContext("output", warnings);
  appendMessages(dialect, found.messages, ctx);
  return { dialect, isCertain: detection.isCertain || found.hint !== null, messages: ctx.out };
}

/**
 * A tool message answers a tool call made earlier in the conversation: inputs first, then
 * outputs (seed §2: "it must equal the id of a tool-call entry in an earlier assistant message").
 */
function checkToolCallIds(input: readonly NativeMessage[], output: readonly NativeMessage[], warnings: string[]): void {
  const seen = new Set<string>();
  const check = (messages: readonly NativeMessage[], side: Side): void => {
    messages.forEach((message, index) => {
      if (message.role === "tool" && message.tool_call_id !== undefined && !seen.has(message.tool_call_id)) {
        warnings.push(`${side} message ${index}: tool_call_id ${JSON.stringify(message.tool_call_id)} matches no earlier tool call`);
      }
      for (const block of message.content) {
        if (block.type === "tool_call" && block.id !== undefined) seen.add(block.id);
      }
    });
  };
  check(input, "input");
  check(output, "output");
}

/** Message indexes in warnings are 0-based positions in the rendered input/output lists. */
export function renderMessages(inputs: unknown, outputs: unknown): RenderedMessages {
  try {
    return renderChecked(inputs, outputs);
  } catch (error) {
    // Nothing above throws on JSON-shaped data; this guards the ingestion path against the
    // pathological (e.g. nesting deep enough to overflow the stack) rather than losing a run.
    const reason = error instanceof Error ? error.message : String(error);
    return { format: "unrecognized", input_messages: [], output_messages: [], warnings: [`rendering failed: ${reason}`] };
  }
}

function renderChecked(inputs: unknown, outputs: unknown): RenderedMessages {
  const warnings: string[] = [];
  const input = renderInputs(inputs, warnings);
  const output = renderOutputs(outputs, input?.dialect ?? null, warnings);
  // The inputs name the format unless they are ambiguous and the outputs are not (a plain
  // `{role: "user", content: "hi"}` request answered by an Anthropic response object).
  const dialect = input?.isCertain || !output?.isCertain ? (input?.dialect ?? output?.dialect) : output.dialect;
  const inputMessages = input?.messages ?? [];
  const outputMessages = output?.messages ?? [];
  checkToolCallIds(inputMessages, outputMessages, warnings);
  return {
    format: dialect === undefined ? "unrecognized" : formatOf(dialect),
    input_messages: inputMessages,
    output_messages: outputMessages,
    warnings,
  };
}
