/**
 * Token estimation for LLM runs that report no usage (SPEC §6: "No token counts at all →
 * estimate them with a tokenizer"). Uses js-tiktoken's bundled BPE ranks, so nothing is
 * downloaded at runtime. Other providers' tokenizers differ from OpenAI's, so for them this is
 * an approximation, which is what `tokens_estimated` tells the reader.
 */
import { createRequire } from "node:module";
import { Tiktoken, type TiktokenBPE } from "js-tiktoken/lite";
import type { ContentBlock, NativeMessage } from "./message-types.js";

export type EncodingName = "o200k_base" | "cl100k_base";

/** Models tokenized with o200k_base; every other name falls back to cl100k_base. */
const O200K_MODELS = /^(?:gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o1|o3|o4)(?:\b|-|$)/;

export function encodingForModel(modelName: string | null): EncodingName {
  if (modelName === null) return "cl100k_base";
  // Names are often prefixed with a provider or deployment path ("openai/gpt-4o", "azure/…").
  const base = modelName.toLowerCase().split("/").pop() ?? "";
  return O200K_MODELS.test(base) ? "o200k_base" : "cl100k_base";
}

// Building an encoder parses the rank file (~650 ms for o200k_base), so each is built once,
// on first use, and kept for the life of the process. The rank files themselves (3.4 MB of
// source) are also loaded on first use, not at start-up: most traces report their usage. They
// are plain data, so loading them through require (their CommonJS build) shares no state.
const encoders = new Map<EncodingName, Tiktoken>();
const require = createRequire(import.meta.url);

function encoderFor(name: EncodingName): Tiktoken {
  let encoder = encoders.get(name);
  if (encoder === undefined) {
    encoder = new Tiktoken(require(`js-tiktoken/ranks/${name}`) as TiktokenBPE);
    encoders.set(name, encoder);
  }
  return encoder;
}

/**
 * js-tiktoken's byte-pair merge is quadratic in the length of one pre-tokenized piece: 4,000
 * repeated letters take ~2.8 s, 16,000 take ~30 s. Runs of non-space characters longer than
 * this are therefore encoded in slices of this size; that changes counts only at the slice
 * boundaries (measured: identical counts on ordinary prose).
 */
const MAX_PIECE_CHARS = 32;
const LONG_PIECE = new RegExp(`\\S{${MAX_PIECE_CHARS + 1},}`, "g");

/**
 * Text beyond this is extrapolated from the tokenized prefix: ordinary text encodes at ~135 ms
 * per million characters, and an ingestion request must not spend seconds on an estimate.
 */
const MAX_TOKENIZED_CHARS = 1_000_000;

export function countTokens(text: string, encoding: EncodingName): number {
  if (text === "") return 0;
  const encoder = encoderFor(encoding);
  // Special-token strings such as "<|endoftext|>" in user data are counted as plain text.
  const encode = (part: string): number => (part === "" ? 0 : encoder.encode(part, [], []).length);
  const sample = text.length > MAX_TOKENIZED_CHARS ? text.slice(0, MAX_TOKENIZED_CHARS) : text;
  let count = 0;
  let last = 0;
  for (const match of sample.matchAll(LONG_PIECE)) {
    count += encode(sample.slice(last, match.index));
    for (let at = 0; at < match[0].length; at += MAX_PIECE_CHARS) count += encode(match[0].slice(at, at + MAX_PIECE_CHARS));
    last = match.index + match[0].length;
  }
  count += encode(sample.slice(last));
  return sample === text ? count : Math.round((count * text.length) / sample.length);
}

/**
 * The text a model reads or writes for one block. Media blocks are not counted: their token
 * cost depends on image size or audio length, which the trace does not carry.
 */
function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
    case "reasoning":
      return block.text;
    case "tool_call":
      return `${block.name ?? ""} ${JSON.stringify(block.args)}`;
    case "server_tool_call":
      return `${block.name} ${JSON.stringify(block.args)}`;
    case "server_tool_result":
      return typeof block.output === "string" ? block.output : (JSON.stringify(block.output) ?? "");
    default:
      return "";
  }
}

export function messagesText(messages: readonly NativeMessage[]): string {
  return messages
    .flatMap((message) => message.content.map(blockText))
    .filter((text) => text !== "")
    .join("\n");
}

/**
 * Text of one side of a run: its rendered messages, or, when nothing rendered (an unrecognized
 * format), the raw value itself so that the estimate is not silently zero.
 */
export function sideText(messages: readonly NativeMessage[], raw: unknown): string {
  if (messages.length > 0) return messagesText(messages);
  if (raw === undefined || raw === null) return "";
  return typeof raw === "string" ? raw : (JSON.stringify(raw) ?? "");
}
