/**
 * List prices of November 2026 in `hangar prices export` format (USD per 1M tokens), upserted by
 * migration 1763760098200. Data only: never edited once merged; a later change is a new file
 * and a new migration. Each row names the page it was read from and when (`as_of`). Where a
 * price was checked against that page or a dated copy of it, as_of is the day of that copy;
 * rows marked `memory` in their comment were not verified by search before merging; they were
 * looked up afterwards, and model-price-corrections-2026-11.ts (migration 1764300200000) records
 * what was found for each, rewriting or removing the row. The data below stays as first shipped.
 *
 * Tiers (select-tier.ts): a condition on the call (more than N input tokens; the service tier the
 * provider reports) and the complete set of rates that replaces the row's. Two tiers a call can
 * meet at once need a third for exactly their overlap (e.g. flex above 272k).
 */

type Rates = { input: string; output: string; cacheRead?: string; cacheWrite?: string; audioIn?: string; audioOut?: string };
interface SeedTier {
  name: string;
  condition: { input_tokens_above: number | null; service_tier: string | null };
  input_price: string;
  output_price: string;
  input_detail_prices: Record<string, string>;
  output_detail_prices: Record<string, string>;
}
export interface SeedRow {
  model_name: string;
  match_pattern: string;
  provider: string | null;
  input_price: string;
  output_price: string;
  input_detail_prices: Record<string, string>;
  output_detail_prices: Record<string, string>;
  tiers: SeedTier[];
  effective_from: string;
  source_url: string;
  as_of: string;
}

const OPENAI_URL = "https://platform.openai.com/docs/pricing";
const ANTHROPIC_URL = "https://docs.anthropic.com/en/docs/about-claude/pricing";
const GEMINI_URL = "https://ai.google.dev/gemini-api/docs/pricing";
const MISTRAL_URL = "https://mistral.ai/pricing#api-pricing";
const DEEPSEEK_URL = "https://api-docs.deepseek.com/quick_start/pricing";
const XAI_URL = "https://docs.x.ai/docs/models";
const GROQ_URL = "https://groq.com/pricing";
const TOGETHER_URL = "https://www.together.ai/pricing";
const FIREWORKS_URL = "https://fireworks.ai/pricing";
const EPOCH = "1970-01-01T00:00:00.000Z";

// The same optional suffixes as the first seed (migration 1763760011000), so a row here with the
// same pattern supersedes that one from its effective date on.
const OPENAI_DATE = String.raw`(-\d{4}-\d{2}-\d{2})?`;
const ANTHROPIC_SUFFIX = String.raw`(-\d{8}|-latest)?(-v\d+(:\d+)?)?`;
const GEMINI_SUFFIX = String.raw`(-\d{3}|-latest|-exp(-\d{4})?|-preview(-[0-9a-z-]+)?)?`;

const escape = (model: string) => model.replace(/[.]/g, "\\.");
const openaiPattern = (model: string) => `^${escape(model)}${OPENAI_DATE}$`;
const anthropicPattern = (model: string) => String.raw`^(anthropic\.)?${escape(model)}${ANTHROPIC_SUFFIX}$`;
const geminiPattern = (model: string) => `^(models/)?${escape(model)}${GEMINI_SUFFIX}$`;

function details(rates: Rates): { input: Record<string, string>; output: Record<string, string> } {
  const input: Record<string, string> = {};
  if (rates.cacheRead) input.cache_read = rates.cacheRead;
  if (rates.cacheWrite) input.cache_creation = rates.cacheWrite;
  if (rates.audioIn) input.audio = rates.audioIn;
  return { input, output: rates.audioOut ? { audio: rates.audioOut } : {} };
}

function tier(name: string, condition: { above?: number; serviceTier?: string }, rates: Rates): SeedTier {
  const { input, output } = details(rates);
  return {
    name,
    condition: { input_tokens_above: condition.above ?? null, service_tier: condition.serviceTier ?? null },
    input_price: rates.input,
    output_price: rates.output,
    input_detail_prices: input,
    output_detail_prices: output,
  };
}

function row(
  model: string,
  pattern: string,
  rates: Rates,
  source: { url: string; asOf: string; from?: string; provider?: string; tiers?: SeedTier[] },
): SeedRow {
  const { input, output } = details(rates);
  return {
    model_name: model,
    match_pattern: pattern,
    provider: source.provider ?? null,
    input_price: rates.input,
    output_price: rates.output,
    input_detail_prices: input,
    output_detail_prices: output,
    tiers: source.tiers ?? [],
    effective_from: source.from ?? EPOCH,
    source_url: source.url,
    as_of: source.asOf,
  };
}

/** OpenAI's flex (half price) and priority tiers, reported as the response's service_tier. */
function openaiServiceTiers(flex: Rates | null, priority: Rates | null): SeedTier[] {
  return [...(flex ? [tier("flex", { serviceTier: "flex" }, flex)] : []), ...(priority ? [tier("priority", { serviceTier: "priority" }, priority)] : [])];
}

/** Anthropic's Message Batches: half of every rate (usage.service_tier "batch"). */
function anthropicBatch(rates: Rates): Rates {
  const half = (value: string | undefined) => (value === undefined ? undefined : String(Number(value) / 2));
  return { input: half(rates.input)!, output: half(rates.output)!, cacheRead: half(rates.cacheRead), cacheWrite: half(rates.cacheWrite) };
}

const SONNET: Rates = { input: "3", output: "15", cacheRead: "0.3", cacheWrite: "3.75" };
// Sonnet 4 and 4.5 bill a whole request at these rates once its input passes 200k tokens.
const SONNET_LONG: Rates = { input: "6", output: "22.5", cacheRead: "0.6", cacheWrite: "7.5" };
const sonnetTiers = [
  tier("long context", { above: 200_000 }, SONNET_LONG),
  tier("batch", { serviceTier: "batch" }, anthropicBatch(SONNET)),
  tier("batch long context", { above: 200_000, serviceTier: "batch" }, anthropicBatch(SONNET_LONG)),
];
const OPUS_45: Rates = { input: "5", output: "25", cacheRead: "0.5", cacheWrite: "6.25" };
const HAIKU_45: Rates = { input: "1", output: "5", cacheRead: "0.1", cacheWrite: "1.25" };

const GPT_54: Rates = { input: "2.5", output: "15", cacheRead: "0.25" };
const GPT_54_LONG: Rates = { input: "5", output: "22.5", cacheRead: "0.5" };
const GPT_55: Rates = { input: "5", output: "30", cacheRead: "0.5" };
const GPT_55_LONG: Rates = { input: "10", output: "45", cacheRead: "1" };
const half = (rates: Rates): Rates => ({
  input: String(Number(rates.input) / 2),
  output: String(Number(rates.output) / 2),
  cacheRead: rates.cacheRead && String(Number(rates.cacheRead) / 2),
});
const times = (rates: Rates, factor: number): Rates => ({
  input: String(Number(rates.input) * factor),
  output: String(Number(rates.output) * factor),
  cacheRead: rates.cacheRead && String(Number(rates.cacheRead) * factor),
});

const GEMINI_25_PRO: Rates = { input: "1.25", output: "10", cacheRead: "0.125" };
const GEMINI_25_PRO_LONG: Rates = { input: "2.5", output: "15", cacheRead: "0.25" };
const GEMINI_3_PRO: Rates = { input: "2", output: "12", cacheRead: "0.2" };
const GEMINI_3_PRO_LONG: Rates = { input: "4", output: "18", cacheRead: "0.4" };

export const MODEL_PRICES_2026_11: { format: "hangar-model-prices"; version: 1; prices: SeedRow[] } = {
  format: "hangar-model-prices",
  version: 1,
  prices: [
    // OpenAI. GPT-5.x standard rates hold up to 272k input tokens; beyond, input costs 2x and output 1.5x.
    row("gpt-5", String.raw`^gpt-5(-\d{4}-\d{2}-\d{2}|-chat-latest)?$`, { input: "1.25", output: "10", cacheRead: "0.125" }, {
      url: OPENAI_URL,
      asOf: "2026-01-15",
      from: "2025-08-07T00:00:00Z",
      tiers: openaiServiceTiers({ input: "0.625", output: "5", cacheRead: "0.0625" }, { input: "2.5", output: "20", cacheRead: "0.25" }),
    }),
    row("gpt-5-mini", openaiPattern("gpt-5-mini"), { input: "0.25", output: "2", cacheRead: "0.025" }, {
      url: OPENAI_URL,
      asOf: "2026-01-15",
      from: "2025-08-07T00:00:00Z",
      tiers: openaiServiceTiers({ input: "0.125", output: "1", cacheRead: "0.0125" }, { input: "0.45", output: "3.6", cacheRead: "0.045" }),
    }),
    row("gpt-5-nano", openaiPattern("gpt-5-nano"), { input: "0.05", output: "0.4", cacheRead: "0.005" }, {
      url: OPENAI_URL,
      asOf: "2026-01-15",
      from: "2025-08-07T00:00:00Z",
      tiers: openaiServiceTiers({ input: "0.025", output: "0.2", cacheRead: "0.0025" }, null),
    }),
    row("gpt-5.1", String.raw`^gpt-5\.1(-\d{4}-\d{2}-\d{2}|-chat-latest)?$`, { input: "1.25", output: "10", cacheRead: "0.125" }, {
      url: OPENAI_URL,
      asOf: "2026-04-13",
      from: "2025-11-13T00:00:00Z",
      tiers: openaiServiceTiers({ input: "0.625", output: "5", cacheRead: "0.0625" }, { input: "2.5", output: "20", cacheRead: "0.25" }),
    }),
    row("gpt-5.2", String.raw`^gpt-5\.2(-\d{4}-\d{2}-\d{2}|-chat-latest)?$`, { input: "1.75", output: "14", cacheRead: "0.175" }, {
      url: OPENAI_URL,
      asOf: "2026-04-13",
    }),
    row("gpt-5.2-pro", openaiPattern("gpt-5.2-pro"), { input: "21", output: "168" }, { url: OPENAI_URL, asOf: "2026-04-13" }),
    row("gpt-5.4", openaiPattern("gpt-5.4"), GPT_54, {
      url: OPENAI_URL,
      asOf: "2026-04-30",
      tiers: [
        tier("long context", { above: 272_000 }, GPT_54_LONG),
        tier("flex", { serviceTier: "flex" }, half(GPT_54)),
        tier("flex long context", { above: 272_000, serviceTier: "flex" }, half(GPT_54_LONG)),
      ],
    }),
    row("gpt-5.4-mini", openaiPattern("gpt-5.4-mini"), { input: "0.75", output: "4.5", cacheRead: "0.075" }, {
      url: OPENAI_URL,
      asOf: "2026-04-30",
      tiers: [tier("flex", { serviceTier: "flex" }, { input: "0.375", output: "2.25", cacheRead: "0.0375" })],
    }),
    row("gpt-5.4-nano", openaiPattern("gpt-5.4-nano"), { input: "0.2", output: "1.25", cacheRead: "0.02" }, {
      url: OPENAI_URL,
      asOf: "2026-04-30",
      tiers: [tier("flex", { serviceTier: "flex" }, { input: "0.1", output: "0.625", cacheRead: "0.01" })],
    }),
    row("gpt-5.4-pro", openaiPattern("gpt-5.4-pro"), { input: "30", output: "180" }, { url: OPENAI_URL, asOf: "2026-06-01" }),
    row("gpt-5.5", openaiPattern("gpt-5.5"), GPT_55, {
      url: OPENAI_URL,
      asOf: "2026-05-21",
      tiers: [
        tier("long context", { above: 272_000 }, GPT_55_LONG),
        tier("flex", { serviceTier: "flex" }, half(GPT_55)),
        tier("flex long context", { above: 272_000, serviceTier: "flex" }, half(GPT_55_LONG)),
        tier("priority", { serviceTier: "priority" }, times(GPT_55, 2.5)),
        tier("priority long context", { above: 272_000, serviceTier: "priority" }, times(GPT_55_LONG, 2.5)),
      ],
    }),
    row("gpt-5.5-pro", openaiPattern("gpt-5.5-pro"), { input: "30", output: "180" }, { url: OPENAI_URL, asOf: "2026-06-01" }),
    // Audio models (text rates, then audio tokens at their own rates): checked, unchanged (see the corrections file).
    row("gpt-realtime", openaiPattern("gpt-realtime"), { input: "4", output: "16", cacheRead: "0.4", audioIn: "32", audioOut: "64" }, {
      url: OPENAI_URL,
      asOf: "2025-08-28",
    }),
    row("gpt-audio", openaiPattern("gpt-audio"), { input: "2.5", output: "10", audioIn: "32", audioOut: "64" }, { url: OPENAI_URL, asOf: "2025-08-28" }),

    // Anthropic. Batch results report usage.service_tier "batch": half price, caching multipliers stack.
    row("claude-sonnet-4", anthropicPattern("claude-sonnet-4"), SONNET, { url: ANTHROPIC_URL, asOf: "2025-08-20", from: "2025-08-12T00:00:00Z", tiers: sonnetTiers }),
    row("claude-sonnet-4-5", anthropicPattern("claude-sonnet-4-5"), SONNET, { url: ANTHROPIC_URL, asOf: "2026-03-21", from: "2025-09-29T00:00:00Z", tiers: sonnetTiers }),
    // Sonnet 4.6 and Opus 4.6/4.7 bill their 1M context at the standard rates (no long-context tier).
    row("claude-sonnet-4-6", anthropicPattern("claude-sonnet-4-6"), SONNET, {
      url: ANTHROPIC_URL,
      asOf: "2026-04-23",
      tiers: [tier("batch", { serviceTier: "batch" }, anthropicBatch(SONNET))],
    }),
    row("claude-opus-4-5", anthropicPattern("claude-opus-4-5"), OPUS_45, {
      url: ANTHROPIC_URL,
      asOf: "2026-03-21",
      from: "2025-11-24T00:00:00Z",
      tiers: [tier("batch", { serviceTier: "batch" }, anthropicBatch(OPUS_45))],
    }),
    row("claude-opus-4-6", anthropicPattern("claude-opus-4-6"), OPUS_45, {
      url: ANTHROPIC_URL,
      asOf: "2026-04-23",
      tiers: [tier("batch", { serviceTier: "batch" }, anthropicBatch(OPUS_45))],
    }),
    row("claude-opus-4-7", anthropicPattern("claude-opus-4-7"), OPUS_45, {
      url: ANTHROPIC_URL,
      asOf: "2026-04-23",
      tiers: [tier("batch", { serviceTier: "batch" }, anthropicBatch(OPUS_45))],
    }),
    row("claude-haiku-4-5", anthropicPattern("claude-haiku-4-5"), HAIKU_45, {
      url: ANTHROPIC_URL,
      asOf: "2026-04-23",
      from: "2025-10-15T00:00:00Z",
      tiers: [tier("batch", { serviceTier: "batch" }, anthropicBatch(HAIKU_45))],
    }),

    // Google. Pro models bill a whole request at the long-context rates past 200k prompt tokens.
    row("gemini-2.5-pro", geminiPattern("gemini-2.5-pro"), GEMINI_25_PRO, {
      url: GEMINI_URL,
      asOf: "2026-03-01",
      from: "2025-04-04T00:00:00Z",
      tiers: [tier("long context", { above: 200_000 }, GEMINI_25_PRO_LONG)],
    }),
    row("gemini-3-pro", geminiPattern("gemini-3-pro"), GEMINI_3_PRO, {
      url: GEMINI_URL,
      asOf: "2026-01-15",
      tiers: [tier("long context", { above: 200_000 }, GEMINI_3_PRO_LONG)],
    }),
    row("gemini-3.1-pro", geminiPattern("gemini-3.1-pro"), GEMINI_3_PRO, {
      url: GEMINI_URL,
      asOf: "2026-06-01",
      tiers: [tier("long context", { above: 200_000 }, GEMINI_3_PRO_LONG)],
    }),
    // Flash models' cache and audio rates: checked, unchanged (see the corrections file).
    row("gemini-3-flash", geminiPattern("gemini-3-flash"), { input: "0.5", output: "3", cacheRead: "0.05", audioIn: "1" }, { url: GEMINI_URL, asOf: "2026-06-01" }),
    row("gemini-3.1-flash-lite", geminiPattern("gemini-3.1-flash-lite"), { input: "0.25", output: "1.5", cacheRead: "0.025" }, { url: GEMINI_URL, asOf: "2026-06-01" }),
    row("gemini-3.5-flash", geminiPattern("gemini-3.5-flash"), { input: "1.5", output: "9", cacheRead: "0.15" }, { url: GEMINI_URL, asOf: "2026-06-01" }),

    // Mistral. `-latest` aliases move to new models: their price changes on the day they move.
    row("mistral-large-2", String.raw`^mistral-large-24(07|11)$`, { input: "2", output: "6" }, { url: MISTRAL_URL, asOf: "2026-06-01" }),
    row("mistral-large-3", String.raw`^mistral-large-2512$`, { input: "0.5", output: "1.5" }, { url: MISTRAL_URL, asOf: "2026-06-01" }),
    row("mistral-large-latest", "^mistral-large-latest$", { input: "2", output: "6" }, { url: MISTRAL_URL, asOf: "2026-06-01" }),
    row("mistral-large-latest", "^mistral-large-latest$", { input: "0.5", output: "1.5" }, { url: MISTRAL_URL, asOf: "2026-06-01", from: "2025-12-02T00:00:00Z" }),
    row("mistral-medium-3", String.raw`^mistral-medium-(2505|2508|latest)$`, { input: "0.4", output: "2" }, { url: MISTRAL_URL, asOf: "2026-06-01" }),
    row("mistral-small", String.raw`^mistral-small-(2503|2506|latest)$`, { input: "0.1", output: "0.3" }, { url: MISTRAL_URL, asOf: "2026-06-01" }),
    row("codestral", String.raw`^codestral-(2501|2508|latest)$`, { input: "0.3", output: "0.9" }, { url: MISTRAL_URL, asOf: "2026-06-01" }),
    row("devstral-medium", String.raw`^devstral-(medium-(2507|latest)|2512)$`, { input: "0.4", output: "2" }, { url: MISTRAL_URL, asOf: "2026-06-01" }),
    row("devstral-small", String.raw`^devstral-small-(2505|2507|latest)$`, { input: "0.1", output: "0.3" }, { url: MISTRAL_URL, asOf: "2026-06-01" }),
    row("magistral-medium", String.raw`^magistral-medium-(\d{4}|latest)$`, { input: "2", output: "5" }, { url: MISTRAL_URL, asOf: "2026-06-01" }),
    row("magistral-small", String.raw`^magistral-small-(\d{4}|latest)$`, { input: "0.5", output: "1.5" }, { url: MISTRAL_URL, asOf: "2026-06-01" }),

    // DeepSeek: two price changes in September 2025 (the new list from 16:00 UTC on the 5th; V3.2 on the 29th).
    row("deepseek-chat", "^deepseek-chat$", { input: "0.27", output: "1.1", cacheRead: "0.07" }, { url: DEEPSEEK_URL, asOf: "2025-09-01" }),
    row("deepseek-chat", "^deepseek-chat$", { input: "0.56", output: "1.68", cacheRead: "0.07" }, { url: DEEPSEEK_URL, asOf: "2025-09-06", from: "2025-09-05T16:00:00Z" }),
    row("deepseek-chat", "^deepseek-chat$", { input: "0.28", output: "0.42", cacheRead: "0.028" }, { url: DEEPSEEK_URL, asOf: "2026-04-13", from: "2025-09-29T00:00:00Z" }),
    row("deepseek-reasoner", "^deepseek-reasoner$", { input: "0.55", output: "2.19", cacheRead: "0.14" }, { url: DEEPSEEK_URL, asOf: "2025-09-01" }),
    row("deepseek-reasoner", "^deepseek-reasoner$", { input: "0.56", output: "1.68", cacheRead: "0.07" }, { url: DEEPSEEK_URL, asOf: "2025-09-06", from: "2025-09-05T16:00:00Z" }),
    row("deepseek-reasoner", "^deepseek-reasoner$", { input: "0.28", output: "0.42", cacheRead: "0.028" }, { url: DEEPSEEK_URL, asOf: "2026-04-13", from: "2025-09-29T00:00:00Z" }),

    // xAI
    row("grok-4.20", String.raw`^grok-4\.20(-\d{4})?(-(non-)?reasoning|-multi-agent(-\d{4})?)?$`, { input: "2", output: "6", cacheRead: "0.2" }, { url: XAI_URL, asOf: "2026-06-01" }),
    row("grok-4-1-fast", String.raw`^grok-4-1-fast(-(non-)?reasoning)?$`, { input: "0.2", output: "0.5", cacheRead: "0.05" }, { url: XAI_URL, asOf: "2026-06-01" }),
    // Grok 4 doubles its rates past 128k tokens (checked); Grok 4 Fast's tier was not confirmed and is removed by the corrections file.
    row("grok-4", String.raw`^grok-4(-0709|-latest)?$`, { input: "3", output: "15", cacheRead: "0.75" }, {
      url: XAI_URL,
      asOf: "2025-10-21",
      tiers: [tier("long context", { above: 128_000 }, { input: "6", output: "30", cacheRead: "0.75" })],
    }),
    row("grok-4-fast", String.raw`^grok-4-fast(-(non-)?reasoning)?$`, { input: "0.2", output: "0.5", cacheRead: "0.05" }, {
      url: XAI_URL,
      asOf: "2025-10-21",
      tiers: [tier("long context", { above: 128_000 }, { input: "0.4", output: "1", cacheRead: "0.05" })],
    }),
    row("grok-code-fast-1", String.raw`^grok-code-fast-1(-\d{4})?$`, { input: "0.2", output: "1.5", cacheRead: "0.02" }, { url: XAI_URL, asOf: "2025-10-21" }),
    row("grok-3", String.raw`^grok-3(-latest)?$`, { input: "3", output: "15", cacheRead: "0.75" }, { url: XAI_URL, asOf: "2025-06-02" }),
    row("grok-3-mini", String.raw`^grok-3-mini(-latest)?$`, { input: "0.3", output: "0.5", cacheRead: "0.075" }, { url: XAI_URL, asOf: "2025-06-02" }),

    // Open-weight hosts: the same weights cost what each host charges, so these rows are per provider.
    row("gpt-oss-120b (Groq)", "^openai/gpt-oss-120b$", { input: "0.15", output: "0.6", cacheRead: "0.075" }, { url: GROQ_URL, asOf: "2026-06-04", provider: "groq" }),
    // The rest of the hosts' rates, first written from memory. Groq's were checked against copies of its page; Kimi K2 on Groq and every
    // Together and Fireworks row could not be confirmed and are removed by the corrections file.
    row("gpt-oss-20b (Groq)", "^openai/gpt-oss-20b$", { input: "0.075", output: "0.3", cacheRead: "0.0375" }, { url: GROQ_URL, asOf: "2025-11-01", provider: "groq" }),
    row("llama-3.3-70b (Groq)", String.raw`^llama-3\.3-70b-versatile$`, { input: "0.59", output: "0.79" }, { url: GROQ_URL, asOf: "2025-11-01", provider: "groq" }),
    row("llama-3.1-8b (Groq)", String.raw`^llama-3\.1-8b-instant$`, { input: "0.05", output: "0.08" }, { url: GROQ_URL, asOf: "2025-11-01", provider: "groq" }),
    row("kimi-k2 (Groq)", String.raw`^moonshotai/kimi-k2-instruct(-0905)?$`, { input: "1", output: "3", cacheRead: "0.5" }, { url: GROQ_URL, asOf: "2025-11-01", provider: "groq" }),
    row("qwen3-32b (Groq)", "^qwen/qwen3-32b$", { input: "0.29", output: "0.59" }, { url: GROQ_URL, asOf: "2025-11-01", provider: "groq" }),
    row("gpt-oss-120b (Together)", "^openai/gpt-oss-120b$", { input: "0.15", output: "0.6" }, { url: TOGETHER_URL, asOf: "2025-11-01", provider: "together" }),
    row("llama-3.3-70b (Together)", String.raw`^meta-llama/Llama-3\.3-70B-Instruct-Turbo$`, { input: "0.88", output: "0.88" }, { url: TOGETHER_URL, asOf: "2025-11-01", provider: "together" }),
    row("deepseek-v3 (Together)", "^deepseek-ai/DeepSeek-V3$", { input: "1.25", output: "1.25" }, { url: TOGETHER_URL, asOf: "2025-11-01", provider: "together" }),
    row("qwen3-235b (Together)", String.raw`^Qwen/Qwen3-235B-A22B-Instruct-2507-tput$`, { input: "0.2", output: "0.6" }, { url: TOGETHER_URL, asOf: "2025-11-01", provider: "together" }),
    row("kimi-k2 (Together)", String.raw`^moonshotai/Kimi-K2-Instruct(-0905)?$`, { input: "1", output: "3" }, { url: TOGETHER_URL, asOf: "2025-11-01", provider: "together" }),
    row("gpt-oss-120b (Fireworks)", "^accounts/fireworks/models/gpt-oss-120b$", { input: "0.15", output: "0.6" }, { url: FIREWORKS_URL, asOf: "2025-11-01", provider: "fireworks" }),
    row("llama-3.3-70b (Fireworks)", "^accounts/fireworks/models/llama-v3p3-70b-instruct$", { input: "0.9", output: "0.9" }, { url: FIREWORKS_URL, asOf: "2025-11-01", provider: "fireworks" }),
    row("deepseek-v3.1 (Fireworks)", "^accounts/fireworks/models/deepseek-v3p1$", { input: "0.56", output: "1.68" }, { url: FIREWORKS_URL, asOf: "2025-11-01", provider: "fireworks" }),
    row("kimi-k2 (Fireworks)", String.raw`^accounts/fireworks/models/kimi-k2-instruct(-0905)?$`, { input: "0.6", output: "2.5" }, { url: FIREWORKS_URL, asOf: "2025-11-01", provider: "fireworks" }),
  ],
};
