/**
 * Token counts of an LLM span, from whichever convention the instrumentation follows, as the
 * `usage_metadata` every LangSmith-wire run carries (so tokens and costs are then computed by the
 * same code, extract-usage.ts and compute-cost.ts).
 *
 * The counting trap: in the GenAI conventions (and OpenInference, and the AI SDK)
 * `input_tokens` already includes cached tokens, where Anthropic's own usage object reports them
 * beside it. They are therefore taken as they are, never added; only when the cache counts exceed
 * the input count (an instrumentation that copied Anthropic's numbers through) are they added,
 * with a warning.
 */
import type { AttributeReader } from "./attribute-reader.js";

export interface OtelUsage {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  input_token_details?: Record<string, number>;
  output_token_details?: Record<string, number>;
}

interface UsageKeys {
  input: string[];
  output: string[];
  total: string[];
  cacheRead: string[];
  cacheCreation: string[];
  reasoning: string[];
  inputAudio: string[];
  outputAudio: string[];
  /** Breakdowns the others already cover (the AI SDK's non-cached and text token counts). */
  covered: string[];
  /** Detail objects as JSON text (LangSmith's exporter: gen_ai.usage.input_token_details). */
  inputDetailsJson: string[];
  outputDetailsJson: string[];
}

const GEN_AI: UsageKeys = {
  input: ["gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"],
  output: ["gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens"],
  total: ["gen_ai.usage.total_tokens", "llm.usage.total_tokens"],
  cacheRead: ["gen_ai.usage.cache_read.input_tokens", "gen_ai.usage.cache_read_input_tokens"],
  cacheCreation: ["gen_ai.usage.cache_creation.input_tokens", "gen_ai.usage.cache_creation_input_tokens"],
  reasoning: ["gen_ai.usage.reasoning.output_tokens", "gen_ai.usage.reasoning_tokens"],
  inputAudio: [],
  outputAudio: [],
  covered: [],
  inputDetailsJson: ["gen_ai.usage.input_token_details"],
  outputDetailsJson: ["gen_ai.usage.output_token_details"],
};

const AI_SDK: UsageKeys = {
  input: ["ai.usage.inputTokens", "ai.usage.promptTokens"],
  output: ["ai.usage.outputTokens", "ai.usage.completionTokens"],
  total: ["ai.usage.totalTokens"],
  cacheRead: ["ai.usage.cachedInputTokens", "ai.usage.inputTokenDetails.cacheReadTokens"],
  cacheCreation: ["ai.usage.inputTokenDetails.cacheWriteTokens"],
  reasoning: ["ai.usage.reasoningTokens", "ai.usage.outputTokenDetails.reasoningTokens"],
  inputAudio: [],
  outputAudio: [],
  covered: ["ai.usage.inputTokenDetails.noCacheTokens", "ai.usage.outputTokenDetails.textTokens"],
  inputDetailsJson: [],
  outputDetailsJson: [],
};

const OPEN_INFERENCE: UsageKeys = {
  input: ["llm.token_count.prompt"],
  output: ["llm.token_count.completion"],
  total: ["llm.token_count.total"],
  cacheRead: ["llm.token_count.prompt_details.cache_read"],
  cacheCreation: ["llm.token_count.prompt_details.cache_write"],
  reasoning: ["llm.token_count.completion_details.reasoning"],
  inputAudio: ["llm.token_count.prompt_details.audio"],
  outputAudio: ["llm.token_count.completion_details.audio"],
  covered: [],
  inputDetailsJson: [],
  outputDetailsJson: [],
};

/**
 * The first convention with token counts wins; null when the span reports none. LangSmith's own
 * exporter sends a whole usage_metadata (langsmith.usage_metadata), taken as it is.
 */
export function readOtelUsage(reader: AttributeReader, warnings: string[]): OtelUsage | Record<string, unknown> | null {
  const langsmith = reader.json("langsmith.usage_metadata");
  if (typeof langsmith === "object" && langsmith !== null && !Array.isArray(langsmith)) {
    markUsageKeys(reader);
    return langsmith as Record<string, unknown>;
  }
  for (const keys of [AI_SDK, OPEN_INFERENCE, GEN_AI]) {
    const usage = readUsage(reader, keys, warnings);
    if (usage !== null) {
      // The other conventions' counts on the same span (the AI SDK also writes gen_ai.usage.*)
      // describe the same call: used, not reported as unmapped.
      markUsageKeys(reader);
      return usage;
    }
  }
  return null;
}

/**
 * Marks every usage attribute as used without reading it: on chain spans (the AI SDK's
 * ai.generateText) they sum the LLM calls below, which are counted there.
 */
export function markUsageKeys(reader: AttributeReader): void {
  reader.markUsedIn(USAGE_KEYS);
}

const USAGE_KEYS: ReadonlySet<string> = new Set([
  "langsmith.usage_metadata",
  ...[AI_SDK, OPEN_INFERENCE, GEN_AI].flatMap((keys) => Object.values(keys).flat()),
]);

function readUsage(reader: AttributeReader, keys: UsageKeys, warnings: string[]): OtelUsage | null {
  let input = reader.number(...keys.input);
  const output = reader.number(...keys.output);
  const total = reader.number(...keys.total);
  if (input === undefined && output === undefined && total === undefined) return null;
  const cacheRead = reader.number(...keys.cacheRead);
  const cacheCreation = reader.number(...keys.cacheCreation);
  const cached = (cacheRead ?? 0) + (cacheCreation ?? 0);
  if (input !== undefined && cached > input) {
    warnings.push(
      `input tokens (${input}) are fewer than the cached tokens (${cached}): read as excluding them (Anthropic's counting), so ${input + cached} input tokens`,
    );
    input += cached;
  }
  const usage: OtelUsage = {};
  if (input !== undefined) usage.input_tokens = input;
  if (output !== undefined) usage.output_tokens = output;
  if (total !== undefined) usage.total_tokens = total;
  const inputDetails = details({
    cache_read: cacheRead,
    cache_creation: cacheCreation,
    audio: reader.number(...keys.inputAudio),
    ...numbersOf(reader.json(...keys.inputDetailsJson)),
  });
  const outputDetails = details({
    reasoning: reader.number(...keys.reasoning),
    audio: reader.number(...keys.outputAudio),
    ...numbersOf(reader.json(...keys.outputDetailsJson)),
  });
  reader.markUsed(...keys.covered);
  if (inputDetails) usage.input_token_details = inputDetails;
  if (outputDetails) usage.output_token_details = outputDetails;
  return usage;
}

function numbersOf(value: unknown): Record<string, number> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, number] => typeof entry[1] === "number"));
}

function details(counts: Record<string, number | undefined>): Record<string, number> | null {
  const kept = Object.entries(counts).filter((entry): entry is [string, number] => entry[1] !== undefined && entry[1] !== 0);
  return kept.length > 0 ? Object.fromEntries(kept) : null;
}
