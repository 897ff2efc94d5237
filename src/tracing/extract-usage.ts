/**
 * A run's token usage (SPEC §6 "Usage"), in order of precedence:
 *   1. `usage_metadata` in the outputs: top level, else on the output messages (LLM runs);
 *   2. `extra.metadata.usage_metadata` (where the LangChain tracers put it);
 *   3. a provider usage object in the outputs (OpenAI, Anthropic, LangChain llm_output);
 *   4. for LLM runs only, an estimate with a tokenizer.
 * Only the seed's keys survive (usage-keys.ts); anything else is reported and ignored.
 */
import { countTokens, encodingForModel, sideText } from "./estimate-tokens.js";
import type { NativeMessage, RenderedMessages } from "./message-types.js";
import { isRecord } from "./normalizers/shared.js";
import {
  PROVIDER_USAGE_ALIASES,
  PROVIDER_USAGE_PATHS,
  type ProviderUsageAlias,
  USAGE_DETAILS_KEYS,
  USAGE_METADATA_KEYS,
  USAGE_NUMBER_KEYS,
  type UsageMetadata,
} from "./usage-keys.js";

export interface UsageExtraction {
  usage: UsageMetadata;
  tokensEstimated: boolean;
  warnings: string[];
  source: "outputs" | "metadata" | "provider" | "estimated" | "none";
}

export interface UsageRun {
  runType: string;
  inputs: unknown;
  outputs: unknown;
  extra: unknown;
}

const ALLOWED_KEYS = new Set(USAGE_METADATA_KEYS);

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function isEmpty(usage: UsageMetadata): boolean {
  return Object.keys(usage).length === 0;
}

function hasTokenCounts(usage: UsageMetadata): boolean {
  return usage.input_tokens !== undefined || usage.output_tokens !== undefined || usage.total_tokens !== undefined;
}

/** Keeps the allowed keys with well-typed values; reports everything else. */
export function sanitizeUsageMetadata(raw: Record<string, unknown>, label: string, warnings: string[]): UsageMetadata {
  const usage: UsageMetadata = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!ALLOWED_KEYS.has(key)) {
      warnings.push(`${label}: unknown usage key ${JSON.stringify(key)} ignored`);
    } else if ((USAGE_NUMBER_KEYS as readonly string[]).includes(key)) {
      if (isCount(value)) usage[key as (typeof USAGE_NUMBER_KEYS)[number]] = value;
      else if (value !== null && value !== undefined) warnings.push(`${label}: usage key "${key}" is not a number; ignored`);
    } else if (isRecord(value)) {
      const details: Record<string, number> = {};
      for (const [kind, count] of Object.entries(value)) {
        if (isCount(count)) details[kind] = count;
        else if (count !== null && count !== undefined) warnings.push(`${label}: usage key "${key}.${kind}" is not a number; ignored`);
      }
      if (Object.keys(details).length > 0) usage[key as (typeof USAGE_DETAILS_KEYS)[number]] = details;
    } else if (value !== null && value !== undefined) {
      warnings.push(`${label}: usage key "${key}" is not an object; ignored`);
    }
  }
  return usage;
}

/** Sums usage objects key by key (several generations of one LLM call each report their own). */
function addUsage(a: UsageMetadata, b: UsageMetadata): UsageMetadata {
  const sum: UsageMetadata = { ...a };
  for (const key of USAGE_NUMBER_KEYS) {
    if (b[key] !== undefined) sum[key] = (sum[key] ?? 0) + b[key];
  }
  for (const key of USAGE_DETAILS_KEYS) {
    const details = b[key];
    if (details === undefined) continue;
    const merged = { ...sum[key] };
    for (const [kind, count] of Object.entries(details)) merged[kind] = (merged[kind] ?? 0) + count;
    sum[key] = merged;
  }
  return sum;
}

/**
 * usage_metadata on output messages counts only for LLM runs: a chain or graph whose output
 * state carries AI messages would otherwise report again the usage its LLM child runs already
 * report, doubling the trace's roll-up. LangChain generations (several candidates of one call)
 * are summed, as LangChain's tracer does; otherwise the last message that has usage wins.
 */
function messageUsage(outputs: unknown, messages: readonly NativeMessage[], warnings: string[]): UsageMetadata | null {
  const withUsage = messages.filter((message) => message.usage_metadata !== undefined);
  if (withUsage.length === 0) return null;
  const label = "output message usage_metadata";
  if (isRecord(outputs) && Array.isArray(outputs.generations)) {
    return withUsage
      .map((message) => sanitizeUsageMetadata(message.usage_metadata ?? {}, label, warnings))
      .reduce(addUsage, {});
  }
  return sanitizeUsageMetadata(withUsage[withUsage.length - 1].usage_metadata ?? {}, label, warnings);
}

function explicitUsage(
  label: string,
  raw: unknown,
  warnings: string[],
): UsageMetadata | null {
  if (raw === undefined || raw === null) return null;
  if (!isRecord(raw)) {
    warnings.push(`${label} is not an object; ignored`);
    return null;
  }
  const usage = sanitizeUsageMetadata(raw, label, warnings);
  return isEmpty(usage) ? null : usage;
}

function getPath(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) current = isRecord(current) ? current[key] : undefined;
  return current;
}

function mapDetails(
  source: Record<string, unknown>,
  table: ProviderUsageAlias["inputDetails"],
  into: Record<string, number>,
): void {
  for (const [parentKey, kinds] of Object.entries(table ?? {})) {
    const parent = source[parentKey];
    if (!isRecord(parent)) continue;
    for (const [providerKind, kind] of Object.entries(kinds)) {
      // Zeros are dropped: OpenAI reports every detail kind on every call, nearly all 0.
      const count = parent[providerKind];
      if (isCount(count) && count !== 0) into[kind] = (into[kind] ?? 0) + count;
    }
  }
}

/** Maps a provider usage object through the alias table; null when no alias fits it. */
export function mapProviderUsage(raw: Record<string, unknown>): UsageMetadata | null {
  const alias = PROVIDER_USAGE_ALIASES.find(
    (candidate) =>
      candidate.requiredKeys.every((key) => isCount(raw[key])) &&
      (candidate.anyOfKeys === undefined || candidate.anyOfKeys.some((key) => key in raw)),
  );
  if (alias === undefined) return null;
  const usage: UsageMetadata = {};
  const inputDetails: Record<string, number> = {};
  const outputDetails: Record<string, number> = {};
  let input = isCount(raw[alias.inputTokens]) ? (raw[alias.inputTokens] as number) : undefined;
  for (const [key, kind] of Object.entries(alias.inputAddends ?? {})) {
    const count = raw[key];
    if (!isCount(count) || count === 0) continue;
    input = (input ?? 0) + count;
    inputDetails[kind] = count;
  }
  mapDetails(raw, alias.inputDetails, inputDetails);
  mapDetails(raw, alias.outputDetails, outputDetails);
  const output = raw[alias.outputTokens];
  const total = alias.totalTokens === undefined ? undefined : raw[alias.totalTokens];
  if (input !== undefined) usage.input_tokens = input;
  if (isCount(output)) usage.output_tokens = output;
  // A provider total is kept as reported; the Anthropic addends never have one to disagree with.
  if (isCount(total)) usage.total_tokens = total;
  if (Object.keys(inputDetails).length > 0) usage.input_token_details = inputDetails;
  if (Object.keys(outputDetails).length > 0) usage.output_token_details = outputDetails;
  return usage;
}

function providerUsage(outputs: unknown): UsageMetadata | null {
  for (const path of PROVIDER_USAGE_PATHS) {
    const raw = getPath(outputs, path);
    const usage = isRecord(raw) ? mapProviderUsage(raw) : null;
    if (usage !== null && !isEmpty(usage)) return usage;
  }
  return null;
}

function withTotal(usage: UsageMetadata): UsageMetadata {
  if (usage.total_tokens !== undefined || (usage.input_tokens === undefined && usage.output_tokens === undefined)) return usage;
  return { ...usage, total_tokens: (usage.input_tokens ?? 0) + (usage.output_tokens ?? 0) };
}

function findUsage(run: UsageRun, rendered: RenderedMessages, warnings: string[]): Pick<UsageExtraction, "usage" | "source"> {
  const outputs = isRecord(run.outputs) ? run.outputs : {};
  const fromOutputs =
    explicitUsage("outputs.usage_metadata", outputs.usage_metadata, warnings) ??
    (run.runType === "llm" ? messageUsage(run.outputs, rendered.output_messages, warnings) : null);
  if (fromOutputs !== null && !isEmpty(fromOutputs)) return { usage: fromOutputs, source: "outputs" };
  const metadata = getPath(run.extra, ["metadata", "usage_metadata"]);
  const fromMetadata = explicitUsage("extra.metadata.usage_metadata", metadata, warnings);
  if (fromMetadata !== null) return { usage: fromMetadata, source: "metadata" };
  const fromProvider = providerUsage(run.outputs);
  if (fromProvider !== null) return { usage: fromProvider, source: "provider" };
  return { usage: {}, source: "none" };
}

/**
 * A cost the provider charged, reported in its own usage object: OpenRouter's OpenAI-shaped
 * `usage.cost` (USD). It is the explicit total_cost of the call when the usage found carries no
 * cost of its own (wrapOpenAI's usage_metadata, found first, never has one).
 */
function withProviderCost(usage: UsageMetadata, outputs: unknown): UsageMetadata {
  if (usage.total_cost !== undefined || usage.input_cost !== undefined || usage.output_cost !== undefined) return usage;
  const cost = getPath(outputs, ["usage", "cost"]);
  return isCount(cost) && cost >= 0 ? { ...usage, total_cost: cost } : usage;
}

export function extractUsage(run: UsageRun, rendered: RenderedMessages, modelName: string | null): UsageExtraction {
  const warnings: string[] = [];
  const found = findUsage(run, rendered, warnings);
  const usage = withProviderCost(withTotal(found.usage), run.outputs);
  if (run.runType !== "llm" || hasTokenCounts(usage)) {
    return { usage, tokensEstimated: false, warnings, source: found.source };
  }
  // An LLM run without counts: estimate them, keeping any explicit costs it did report.
  let inputTokens: number;
  let outputTokens: number;
  try {
    const encoding = encodingForModel(modelName);
    inputTokens = countTokens(sideText(rendered.input_messages, run.inputs), encoding);
    outputTokens = countTokens(sideText(rendered.output_messages, run.outputs), encoding);
  } catch (error) {
    // Only pathological payloads get here (JSON nested deep enough to overflow the stack when
    // re-serialized); the run is still stored, just without an estimate.
    warnings.push(`token estimation failed: ${error instanceof Error ? error.message : String(error)}`);
    return { usage, tokensEstimated: false, warnings, source: found.source };
  }
  return {
    usage: { ...usage, input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
    tokensEstimated: true,
    warnings,
    source: found.source === "none" ? "estimated" : found.source,
  };
}
