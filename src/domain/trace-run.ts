import type { JsonObject } from "./json.js";
import type { RenderedMessages } from "../tracing/message-types.js";
import type { CanonicalRunTime } from "../tracing/ingest/parse-run-time.js";

/**
 * Trace runs (LLM-call records) as the service layer sees them. Times are canonical strings
 * (`YYYY-MM-DDTHH:MM:SS.ffffffZ`) rather than Dates because clients send microseconds, which a
 * Date would drop; costs are decimal strings because money is exact.
 */

/** A time as a caller may give it: ISO 8601 string (no offset = UTC), epoch milliseconds or a Date. */
export type RunTimeInput = string | number | Date;

export interface TraceAttachment {
  contentType: string | null;
  sizeBytes: number;
}

/**
 * One run operation, as a tracer sends it. Only `id` is required; absent and null fields mean
 * "not given". A post creates (or, retried, re-sends) a run; a patch completes it (end time,
 * outputs, error, events, extra merged) and may arrive before its post.
 */
export interface TraceRunOperation {
  id: string;
  traceId?: string | null;
  parentRunId?: string | null;
  dottedOrder?: string | null;
  name?: string | null;
  runType?: string | null;
  status?: string | null;
  startTime?: RunTimeInput | null;
  endTime?: RunTimeInput | null;
  inputs?: unknown;
  outputs?: unknown;
  extra?: JsonObject | null;
  events?: unknown[] | null;
  serialized?: unknown;
  error?: string | null;
  tags?: string[] | null;
  sessionName?: string | null;
  sessionId?: string | null;
  referenceExampleId?: string | null;
  attachments?: Record<string, TraceAttachment> | null;
}

export type TraceRunPost = TraceRunOperation;
export type TraceRunPatch = TraceRunOperation;

export interface IngestTraceRunsInput {
  posts: TraceRunPost[];
  patches: TraceRunPatch[];
  /**
   * The caller created every run of the batch itself just now (Hangar's own graph tracer): they
   * are written with one statement, without first reading them under lock. Runs that turn out to
   * exist after all are merged the usual way.
   */
  allNew?: boolean;
}

/** The fields stored as received (after merging every post and patch seen for the run). */
export interface TraceRunRecord {
  id: string;
  traceId: string | null;
  parentRunId: string | null;
  dottedOrder: string | null;
  name: string | null;
  runType: string | null;
  status: string | null;
  startTime: CanonicalRunTime;
  endTime: CanonicalRunTime | null;
  inputs: unknown;
  outputs: unknown;
  extra: JsonObject | null;
  events: unknown[] | null;
  serialized: unknown;
  error: string | null;
  tags: string[];
  sessionName: string | null;
  sessionId: string | null;
  referenceExampleId: string | null;
  attachments: Record<string, TraceAttachment> | null;
  /** False while only a patch has arrived: startTime is then provisional. */
  hasPost: boolean;
  hasPatch: boolean;
}

/** Everything computed from a record; recomputed whenever a post or patch for the run arrives. */
export interface TraceRunDerived {
  rendered: RenderedMessages | null;
  warnings: string[];
  modelName: string | null;
  provider: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  totalTokens: number | null;
  promptTokenDetails: Record<string, number> | null;
  completionTokenDetails: Record<string, number> | null;
  promptCost: string | null;
  completionCost: string | null;
  totalCost: string | null;
  promptCostDetails: Record<string, string> | null;
  completionCostDetails: Record<string, string> | null;
  costSource: "explicit" | "price-table" | "none";
  priceId: string | null;
  /** The service tier the provider reported (or the call requested), lower case: flex, priority, batch … */
  serviceTier: string | null;
  /** The name of the price row's tier that priced the run; null: the row's own prices. */
  priceTier: string | null;
  usageSource: "outputs" | "metadata" | "provider" | "estimated" | "none";
  tokensEstimated: boolean;
  firstTokenTime: CanonicalRunTime | null;
  /** Links to Hangar's own records, from extra.metadata.run_id / thread_id / assistant_id. */
  hangarRunId: string | null;
  threadId: string | null;
  assistantId: string | null;
}

export interface TraceRun extends TraceRunRecord, TraceRunDerived {
  receivedAt: Date;
  updatedAt: Date;
}

export interface TraceRunNode {
  run: TraceRun;
  children: TraceRunNode[];
}

export interface TraceTree {
  traceId: string;
  /** Every run of the trace in dotted_order (depth-first, start order). */
  runs: TraceRun[];
  /** Runs whose parent is not in the trace (normally the one root). */
  roots: TraceRunNode[];
}

/** What a whole trace shows beyond its root run: read over every run of the trace. */
export interface TraceProgress {
  /** The earliest first token of any of its model calls; null when none streamed. */
  firstTokenTime: CanonicalRunTime | null;
  /** One of its runs stopped in a LangGraph interrupt (domain/trace-run-status.ts). */
  hasGraphInterrupt: boolean;
}

/** Token and cost sums; costs are exact decimal strings ("0" when nothing was priced). */
export interface UsageTotals {
  runCount: number;
  /** The distinct model names of the runs summed (their LLM calls), in alphabetical order. */
  modelNames: string[];
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  promptCost: string;
  completionCost: string;
  totalCost: string;
}

export type UsageGrouping = "model" | "provider" | "assistant" | "day" | "thread" | "metadata";

/** How usage roll-up rows are ordered: by their keys, or most expensive first. */
export type UsageOrder = "keys" | "cost";

export interface UsageSummaryRow extends UsageTotals {
  /** The group's keys; keys not grouped by are null, as are keys the group's runs lack. */
  model: string | null;
  provider: string | null;
  assistantId: string | null;
  /** UTC day, YYYY-MM-DD. */
  day: string | null;
  /** The run's LangSmith thread: metadata thread_id, session_id or conversation_id (the first present). */
  thread: string | null;
  /** The value (as text) of the metadata key grouped by. */
  metadataValue: string | null;
}

/** A trace's usage: its sums, keyed by trace id, for the most expensive traces. */
export interface TraceUsage {
  traceId: string;
  rootRunId: string;
  totals: UsageTotals;
}

/** A tracing project (a LangSmith session): runs recorded under one project id, and their span. */
export interface TraceProject {
  id: string;
  name: string | null;
  startTime: Date;
  lastRunStartTime: Date;
  runCount: number;
}
