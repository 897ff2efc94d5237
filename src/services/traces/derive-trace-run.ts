import { isJsonObject } from "../../domain/json.js";
import { MAX_INDEXED_TEXT_BYTES } from "../../domain/input-bounds.js";
import { extractUsage } from "../../tracing/extract-usage.js";
import { identifyModel } from "../../tracing/identify-model.js";
import { identifyServiceTier } from "../../tracing/identify-service-tier.js";
import { parseDottedOrder } from "../../tracing/ingest/dotted-order.js";
import { parseRunTime, runTimeToEpochMs, type CanonicalRunTime } from "../../tracing/ingest/parse-run-time.js";
import { computeCost } from "../../tracing/pricing/compute-cost.js";
import { matchPrice } from "../../tracing/pricing/match-price.js";
import type { ModelPrice } from "../../tracing/pricing/model-price.js";
import { renderMessages } from "../../tracing/render-messages.js";
import type { TraceRunDerived, TraceRunRecord } from "../../domain/trace-run.js";

const KNOWN_RUN_TYPES = new Set(["llm", "chain", "tool", "retriever", "embedding", "prompt", "parser"]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Everything computed from a stored record (pure; prices are passed in): rendered messages,
 * usage, model, costs, time to first token and links to Hangar's runs, plus the warnings.
 *
 * Only `llm` runs are rendered and priced. Chain and tool runs wrap LLM runs, often with the same
 * messages and usage in their outputs; pricing them too would count the tokens twice in every
 * roll-up (trace totals sum all runs of a trace).
 */
export function deriveTraceRun(record: TraceRunRecord, prices: readonly ModelPrice[]): TraceRunDerived {
  const warnings = recordWarnings(record);
  const metadata = isJsonObject(record.extra) && isJsonObject(record.extra.metadata) ? record.extra.metadata : {};
  const firstTokenTime = firstNewTokenTime(record.events, warnings);
  const links = {
    hangarRunId: uuidOrNull(metadata.run_id),
    threadId: uuidOrNull(metadata.thread_id),
    assistantId: uuidOrNull(metadata.assistant_id),
  };
  if (record.runType !== "llm") return notPriced(warnings, firstTokenTime, links);

  const identified = identifyModel({ inputs: record.inputs, extra: record.extra });
  const { provider } = identified;
  // The model name is indexed (trace_runs_model_name_idx): one past the index's bound is no real
  // model's, so it is dropped with a warning rather than failing the whole batch.
  const isIndexable = identified.modelName === null || Buffer.byteLength(identified.modelName) <= MAX_INDEXED_TEXT_BYTES;
  if (!isIndexable) warnings.push(`model name longer than ${MAX_INDEXED_TEXT_BYTES} bytes ignored`);
  const modelName = isIndexable ? identified.modelName : null;
  const rendered = renderMessages(record.inputs, record.outputs);
  // What ingestion could not map (OTLP spans' unknown attributes) belongs in the rendered view too.
  rendered.warnings.push(...ingestWarnings(record));
  const { usage, source, tokensEstimated, warnings: usageWarnings } = extractUsage(
    { runType: record.runType, inputs: record.inputs, outputs: record.outputs, extra: record.extra },
    rendered,
    modelName,
  );
  // The rendered view is what a reader looks at: usage fields outside the contract are named
  // there too, not only in the run's warnings (the run itself keeps them verbatim).
  rendered.warnings.push(...usageWarnings);
  const price = matchPrice(prices, modelName, provider, new Date(runTimeToEpochMs(record.startTime)));
  const serviceTier = identifyServiceTier({ outputs: record.outputs, extra: record.extra });
  const cost = computeCost(usage, price, { serviceTier });
  // Every field spelled out in a fixed order (no spreads): one hidden class for all runs keeps
  // the batch serializer on V8's fast path.
  return {
    rendered,
    warnings: warnings.concat(rendered.warnings),
    modelName,
    provider,
    promptTokens: usage.input_tokens ?? null,
    completionTokens: usage.output_tokens ?? null,
    totalTokens: usage.total_tokens ?? null,
    promptTokenDetails: usage.input_token_details ?? null,
    completionTokenDetails: usage.output_token_details ?? null,
    promptCost: cost.promptCost,
    completionCost: cost.completionCost,
    totalCost: cost.totalCost,
    promptCostDetails: emptyToNull(cost.promptCostDetails),
    completionCostDetails: emptyToNull(cost.completionCostDetails),
    costSource: cost.source,
    priceId: cost.priceId,
    serviceTier,
    priceTier: cost.priceTier,
    usageSource: source,
    tokensEstimated,
    firstTokenTime,
    hangarRunId: links.hangarRunId,
    threadId: links.threadId,
    assistantId: links.assistantId,
  };
}

type Links = Pick<TraceRunDerived, "hangarRunId" | "threadId" | "assistantId">;

function notPriced(warnings: string[], firstTokenTime: CanonicalRunTime | null, links: Links): TraceRunDerived {
  return {
    rendered: null,
    warnings,
    modelName: null,
    provider: null,
    promptTokens: null,
    completionTokens: null,
    totalTokens: null,
    promptTokenDetails: null,
    completionTokenDetails: null,
    promptCost: null,
    completionCost: null,
    totalCost: null,
    promptCostDetails: null,
    completionCostDetails: null,
    costSource: "none",
    priceId: null,
    serviceTier: null,
    priceTier: null,
    usageSource: "none",
    tokensEstimated: false,
    firstTokenTime,
    hangarRunId: links.hangarRunId,
    threadId: links.threadId,
    assistantId: links.assistantId,
  };
}

/** Problems with the run's own fields: stored anyway, reported with the run. */
function recordWarnings(record: TraceRunRecord): string[] {
  const warnings: string[] = [];
  if (!record.hasPost) warnings.push("only a patch has arrived for this run: start_time is provisional until its post");
  if (record.runType !== null && !KNOWN_RUN_TYPES.has(record.runType)) {
    warnings.push(`run_type '${record.runType}' is not one of ${[...KNOWN_RUN_TYPES].join(", ")}`);
  }
  if (record.hasPost && record.runType === null) warnings.push("run_type is missing");
  if (record.dottedOrder !== null) {
    const segments = parseDottedOrder(record.dottedOrder);
    if (!segments) warnings.push("dotted_order is malformed (expected <YYYYMMDDTHHMMSSffffffZ><run id> segments joined by '.')");
    else {
      if (segments[segments.length - 1].runId !== record.id) warnings.push("dotted_order does not end with this run's id");
      if (record.traceId !== null && segments[0].runId !== record.traceId) {
        warnings.push("dotted_order does not start with the run's trace_id");
      }
    }
  }
  if (record.hasPost && record.traceId === null) warnings.push("trace_id is missing and no dotted_order names it");
  if (record.attachments) warnings.push("attachment contents are not stored; only their names, types and sizes");
  // LLM runs report these through their rendered view (added to the warnings with it).
  if (record.runType !== "llm") warnings.push(...ingestWarnings(record));
  return warnings;
}

/** The time of the earliest `new_token` event: time to first token is firstTokenTime - startTime. */
function firstNewTokenTime(events: unknown[] | null, warnings: string[]): CanonicalRunTime | null {
  let earliest: CanonicalRunTime | null = null;
  let unreadable = 0;
  for (const event of events ?? []) {
    if (!isJsonObject(event) || event.name !== "new_token") continue;
    const time = parseRunTime(event.time);
    if (time === undefined) unreadable++;
    // Canonical times have a fixed width, so string order is time order.
    else if (earliest === null || time < earliest) earliest = time;
  }
  if (unreadable > 0) warnings.push(`${unreadable} new_token event(s) have no readable time`);
  return earliest;
}

/** Warnings an ingestion adapter recorded with the run (OTLP: extra.otel.warnings). */
function ingestWarnings(record: TraceRunRecord): string[] {
  const otel = isJsonObject(record.extra) ? record.extra.otel : undefined;
  const warnings = isJsonObject(otel) ? otel.warnings : undefined;
  return Array.isArray(warnings) ? warnings.filter((warning): warning is string => typeof warning === "string") : [];
}

function uuidOrNull(value: unknown): string | null {
  return typeof value === "string" && UUID.test(value) ? value.toLowerCase() : null;
}

function emptyToNull<Value>(map: Record<string, Value>): Record<string, Value> | null {
  return Object.keys(map).length ? map : null;
}
