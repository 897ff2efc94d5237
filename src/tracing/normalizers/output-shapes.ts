/**
 * Where the messages are inside a run's inputs/outputs. Outputs come in more shapes than inputs
 * (seed §2): native `{messages}`, `{choices: [{message}]}`, `{message}`, `{role, content}`, the
 * pair `[role, content]`, Anthropic's response object and LangChain's `{generations: [[...]]}`.
 * This module only finds the raw messages; the format normalizers turn them into native ones.
 */
import { isLangChainMessage } from "./langchain.js";
import { isRecord } from "./shared.js";

/** The dialect a shape implies, used when the messages themselves are ambiguous. */
export type ShapeHint = "openai" | "anthropic" | "langchain" | null;

export interface FoundMessages {
  messages: unknown[];
  hint: ShapeHint;
}

/** LangChain's tuple shorthand uses its own role names; everything else is passed through. */
const TUPLE_ROLES: Readonly<Record<string, string>> = { human: "user", ai: "assistant" };

function isRoleTuple(value: unknown): value is [string, unknown] {
  return Array.isArray(value) && value.length === 2 && typeof value[0] === "string";
}

function tupleToMessage([role, content]: [string, unknown]): Record<string, unknown> {
  return { role: TUPLE_ROLES[role] ?? role, content };
}

/**
 * Flattens a message list: LangChain tracers send a batch of lists (`[[msg, msg]]`, one inner
 * list per prompt), and `[role, content]` pairs are accepted wherever a message is.
 */
export function flattenMessageList(list: readonly unknown[]): unknown[] {
  return list.flatMap((item) => {
    if (isRoleTuple(item)) return [tupleToMessage(item)];
    if (Array.isArray(item)) return flattenMessageList(item);
    return [item];
  });
}

/** Messages in a run's inputs, or null when the inputs hold none in a known shape. */
export function findInputMessages(inputs: unknown): (FoundMessages & { system?: unknown }) | null {
  if (!isRecord(inputs)) return null;
  if (Array.isArray(inputs.messages)) {
    return { messages: flattenMessageList(inputs.messages), hint: null, system: inputs.system };
  }
  // LangChain completion-style LLMs (not chat models) are traced as `{prompts: [string]}`.
  if (Array.isArray(inputs.prompts) && inputs.prompts.every((prompt) => typeof prompt === "string")) {
    return { messages: inputs.prompts.map((prompt) => ({ type: "human", content: prompt })), hint: "langchain" };
  }
  return null;
}

/** Messages in a run's outputs, or null when the outputs hold none in a known shape. */
export function findOutputMessages(outputs: unknown): FoundMessages | null {
  if (isRoleTuple(outputs)) return { messages: [tupleToMessage(outputs)], hint: null };
  if (Array.isArray(outputs)) {
    return outputs.every((item) => isRecord(item) || Array.isArray(item))
      ? { messages: flattenMessageList(outputs), hint: null }
      : null;
  }
  if (!isRecord(outputs)) return null;
  if (isLangChainMessage(outputs)) return { messages: [outputs], hint: "langchain" };
  if (Array.isArray(outputs.generations)) {
    return { messages: flattenMessageList(outputs.generations).map(generationMessage), hint: "langchain" };
  }
  if (Array.isArray(outputs.choices)) return { messages: outputs.choices.map(choiceMessage), hint: "openai" };
  if (Array.isArray(outputs.messages)) return { messages: flattenMessageList(outputs.messages), hint: null };
  if (isRecord(outputs.message)) return { messages: [outputs.message], hint: null };
  if (isRoleTuple(outputs.message)) return { messages: [tupleToMessage(outputs.message)], hint: null };
  if ("role" in outputs && "content" in outputs) {
    // Anthropic's response object says `type: "message"`; its blocks are otherwise plain text.
    return { messages: [outputs], hint: outputs.type === "message" ? "anthropic" : null };
  }
  return null;
}

/** `{message, text}` from a chat model; completion models only have `text`. */
function generationMessage(generation: unknown): unknown {
  if (!isRecord(generation)) return generation;
  if (isRecord(generation.message)) return generation.message;
  if (typeof generation.text === "string") return { type: "ai", content: generation.text };
  return generation;
}

/** Chat completions carry `message`; legacy completions only `text`. */
function choiceMessage(choice: unknown): unknown {
  if (!isRecord(choice)) return choice;
  if (isRecord(choice.message)) return choice.message;
  if (typeof choice.text === "string") return { role: "assistant", content: choice.text };
  return choice;
}
