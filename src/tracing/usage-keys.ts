/**
 * The one table of usage keys: which `usage_metadata` keys the seed allows (§2 "Usage
 * metadata"), and how provider usage objects map onto them. Provider shapes are data here so
 * that supporting another provider is a table entry, not new extraction code.
 */

/** Allowed `usage_metadata` keys; any other key is reported and ignored. */
export const USAGE_METADATA_KEYS: readonly string[] = [
  "input_tokens",
  "output_tokens",
  "total_tokens",
  "input_token_details",
  "output_token_details",
  "input_cost",
  "output_cost",
  "total_cost",
  "input_cost_details",
  "output_cost_details",
];

export type UsageCountKey = "input_tokens" | "output_tokens" | "total_tokens" | "input_cost" | "output_cost" | "total_cost";
export type UsageDetailsKey = "input_token_details" | "output_token_details" | "input_cost_details" | "output_cost_details";

/** Keys whose value is a number; the rest are objects of string → number. */
export const USAGE_NUMBER_KEYS: readonly UsageCountKey[] = [
  "input_tokens",
  "output_tokens",
  "total_tokens",
  "input_cost",
  "output_cost",
  "total_cost",
];
export const USAGE_DETAILS_KEYS: readonly UsageDetailsKey[] = [
  "input_token_details",
  "output_token_details",
  "input_cost_details",
  "output_cost_details",
];

export interface UsageMetadata {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  input_token_details?: Record<string, number>;
  output_token_details?: Record<string, number>;
  input_cost?: number;
  output_cost?: number;
  total_cost?: number;
  input_cost_details?: Record<string, number>;
  output_cost_details?: Record<string, number>;
}

/**
 * How one provider reports usage. Detail kinds use LangChain's names (cache_read,
 * cache_creation, audio, reasoning), which are also the detail-price keys of the price table.
 */
export interface ProviderUsageAlias {
  provider: string;
  /** The object is this provider's when all of these keys are present. */
  requiredKeys: readonly string[];
  /** …and, when given, at least one of these. */
  anyOfKeys?: readonly string[];
  inputTokens: string;
  outputTokens: string;
  totalTokens?: string;
  /**
   * Token counts the provider reports *beside* inputTokens although they are input: Anthropic's
   * `input_tokens` excludes cache reads and writes, while everyone else (and usage_metadata)
   * counts cached input inside input_tokens. They are added to input_tokens and recorded as
   * input details.
   */
  inputAddends?: Readonly<Record<string, string>>;
  /** `{parentKey: {providerKind: detailKind}}` for details already included in the counts. */
  inputDetails?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  outputDetails?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** Checked in order; the first whose keys match wins. */
export const PROVIDER_USAGE_ALIASES: readonly ProviderUsageAlias[] = [
  {
    provider: "openai-chat",
    requiredKeys: ["prompt_tokens"],
    inputTokens: "prompt_tokens",
    outputTokens: "completion_tokens",
    totalTokens: "total_tokens",
    inputDetails: { prompt_tokens_details: { cached_tokens: "cache_read", audio_tokens: "audio" } },
    outputDetails: { completion_tokens_details: { reasoning_tokens: "reasoning", audio_tokens: "audio" } },
  },
  {
    // The Responses API names its counts like Anthropic but includes cached input, as chat does.
    provider: "openai-responses",
    requiredKeys: ["input_tokens"],
    anyOfKeys: ["input_tokens_details", "output_tokens_details", "total_tokens"],
    inputTokens: "input_tokens",
    outputTokens: "output_tokens",
    totalTokens: "total_tokens",
    inputDetails: { input_tokens_details: { cached_tokens: "cache_read" } },
    outputDetails: { output_tokens_details: { reasoning_tokens: "reasoning" } },
  },
  {
    provider: "anthropic",
    requiredKeys: ["input_tokens"],
    inputTokens: "input_tokens",
    outputTokens: "output_tokens",
    inputAddends: { cache_creation_input_tokens: "cache_creation", cache_read_input_tokens: "cache_read" },
  },
  {
    // LangChain JS `llmOutput.tokenUsage` (camelCase); Python's `token_usage` is OpenAI-shaped.
    provider: "langchain-js",
    requiredKeys: ["promptTokens"],
    inputTokens: "promptTokens",
    outputTokens: "completionTokens",
    totalTokens: "totalTokens",
  },
];

/**
 * Where provider usage objects sit in a run's outputs, most specific first: the raw API
 * response (`usage`), then LangChain's LLMResult `llm_output` (Python) / `llmOutput` (JS).
 */
export const PROVIDER_USAGE_PATHS: readonly (readonly string[])[] = [
  ["usage"],
  ["llm_output", "token_usage"],
  ["llm_output", "usage"],
  ["llmOutput", "tokenUsage"],
  ["llm_output", "tokenUsage"],
];
