import { getTraceRuns } from "../db/sql/get-trace-runs.js";
import { listTraceChildIds } from "../db/sql/list-trace-child-ids.js";
import { listTraceRunChildren } from "../db/sql/list-trace-run-children.js";
import { listTraceRunsOfTrace } from "../db/sql/list-trace-runs-of-trace.js";
import { queryTraceRuns, type TraceRunFilter } from "../db/sql/query-trace-runs.js";
import { sumTraceUsage } from "../db/sql/sum-trace-usage.js";
import { countTraceRuns } from "../db/sql/count-trace-runs.js";
import { selectTraceProjects } from "../db/sql/select-trace-projects.js";
import { summarizeTraceUsage } from "../db/sql/summarize-trace-usage.js";
import { rankExpensiveTraces } from "../db/sql/rank-expensive-traces.js";
import { summarizeTraceProgress } from "../db/sql/summarize-trace-progress.js";
import { InvalidInputError, NotFoundError } from "../domain/errors.js";
import type { JsonObject } from "../domain/json.js";
import { parseRunTime } from "../tracing/ingest/parse-run-time.js";
import { inKeyOrder } from "./key-order.js";
import { MAX_METADATA_ALTERNATIVES } from "./threads.service.js";
import { requireOperator } from "./access-scope.js";
import type { ServiceContext } from "./service-context.js";
import { ingestTraceRuns, type IngestOptions } from "./traces/ingest-trace-runs.js";
import type { OtlpSpan } from "../tracing/otlp/otlp-span.js";
import { spanRejection, spanToRunOperation } from "../tracing/otlp/span-to-run.js";
import { decodeTraceCursor, encodeTraceCursor } from "./traces/trace-cursor.js";
import type {
  IngestTraceRunsInput,
  RunTimeInput,
  TraceProgress,
  TraceProject,
  TraceRun,
  TraceRunNode,
  TraceTree,
  UsageGrouping,
  UsageOrder,
  UsageSummaryRow,
  UsageTotals,
} from "../domain/trace-run.js";

export interface QueryTraceRunsInput extends Omit<TraceRunFilter, "startTimeFrom" | "startTimeTo"> {
  startTimeFrom?: RunTimeInput;
  startTimeTo?: RunTimeInput;
  metadata?: JsonObject;
  /** 1..1000. */
  limit: number;
  /** From a previous page's nextCursor; pages then continue where that one ended. */
  cursor?: string | null;
  offset?: number;
  /** By start time, ties by id. Default newest first. */
  order?: "asc" | "desc";
}


export interface TraceRunPage {
  runs: TraceRun[];
  /** Null on the last page. */
  nextCursor: string | null;
}

export interface SummarizeUsageInput {
  from: RunTimeInput;
  to: RunTimeInput;
  /** Zero or more keys; none gives one row of totals over the range. */
  groupBy: readonly UsageGrouping[];
  runTypes?: string[];
  /** Required with the `metadata` grouping: the extra.metadata key whose values are the groups. */
  metadataKey?: string;
  /** Default keys. */
  order?: UsageOrder;
  /** 1..MAX_USAGE_ROWS; default DEFAULT_USAGE_ROWS. */
  limit?: number;
}

/** Roll-up rows are bounded: a year of days by model is ~7,000 rows; more is an export, not a view. */
export const DEFAULT_USAGE_ROWS = 1000;
export const MAX_USAGE_ROWS = 5000;
export const DEFAULT_EXPENSIVE_TRACES = 10;
export const MAX_EXPENSIVE_TRACES = 100;
const MAX_METADATA_KEY_LENGTH = 200;

export interface ExpensiveTrace {
  /** The trace's root run. */
  root: TraceRun;
  totals: UsageTotals;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ZERO_TOTALS: UsageTotals = {
  runCount: 0,
  modelNames: [],
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
  promptCost: "0",
  completionCost: "0",
  totalCost: "0",
};

export const tracesService = {
  /**
   * Stores posts and patches (LangSmith run operations) and derives messages, usage and costs.
   * Transport-neutral: REST ingestion and Hangar's own graph tracer both call this. `andThen`
   * writes what else belongs to the batch in the same transaction.
   */
  async ingest(ctx: ServiceContext, input: IngestTraceRunsInput, options: IngestOptions = {}): Promise<{ runIds: string[] }> {
    requireOperator(ctx, "Trace ingestion and reads");
    const stored = await ingestTraceRuns(ctx, input, options);
    ctx.metrics?.traceRunsStored(stored.runIds.length);
    return stored;
  },

  /**
   * Stores OpenTelemetry spans as trace runs (tracing/otlp/span-to-run.ts maps them). Spans that
   * cannot be stored at all (no trace or span id, no start time) are left out and counted, for
   * OTLP's partial-success answer; the rest are stored in one transaction, as any batch.
   */
  async ingestOtelSpans(
    ctx: ServiceContext,
    spans: readonly OtlpSpan[],
    options: { projectName?: string } = {},
  ): Promise<{ rejectedSpans: number; errorMessage: string }> {
    requireOperator(ctx, "Trace ingestion and reads");
    const rejections: string[] = [];
    const posts = [];
    for (const span of spans) {
      const rejection = spanRejection(span);
      if (rejection !== null) rejections.push(rejection);
      else posts.push(spanToRunOperation(span, options));
    }
    if (posts.length > 0) await ingestTraceRuns(ctx, { posts, patches: [] });
    // Spans are numerous: the message names the first few problems, not every one.
    const errorMessage = rejections.slice(0, 5).join("; ") + (rejections.length > 5 ? `; and ${rejections.length - 5} more` : "");
    return { rejectedSpans: rejections.length, errorMessage };
  },

  async get(ctx: ServiceContext, id: string): Promise<TraceRun> {
    requireOperator(ctx, "Traces");
    const [run] = UUID.test(id) ? await getTraceRuns(ctx.db.dataSource.manager, [id.toLowerCase()]) : [];
    if (!run) throw new NotFoundError(`Trace run '${id}' not found`);
    return run;
  },

  /**
   * Tracing projects (LangSmith "sessions"): a project is the runs recorded with one session id
   * (ingest gives runs named only by session_name their name's id, domain/ids.ts).
   */
  async listProjects(ctx: ServiceContext, query: { name?: string; limit: number; offset: number }): Promise<TraceProject[]> {
    requireOperator(ctx, "Traces");
    return selectTraceProjects(ctx.db.dataSource.manager, query);
  },

  async getProject(ctx: ServiceContext, id: string): Promise<TraceProject> {
    requireOperator(ctx, "Traces");
    const [project] = UUID.test(id) ? await selectTraceProjects(ctx.db.dataSource.manager, { id: id.toLowerCase(), limit: 1, offset: 0 }) : [];
    if (!project) throw new NotFoundError(`Tracing project '${id}' not found: no run was recorded into it`);
    return project;
  },

  /** For DataLoaders: results in key order, null where a run does not exist. */
  async getMany(ctx: ServiceContext, ids: readonly string[]): Promise<(TraceRun | null)[]> {
    requireOperator(ctx, "Traces");
    const valid = ids.filter((id) => UUID.test(id)).map((id) => id.toLowerCase());
    return inKeyOrder(ids, await getTraceRuns(ctx.db.dataSource.manager, valid), (run) => run.id);
  },

  async query(ctx: ServiceContext, input: QueryTraceRunsInput): Promise<TraceRunPage> {
    requireOperator(ctx, "Traces");
    const { limit, cursor, offset, order = "desc", startTimeFrom, startTimeTo, ...filter } = input;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new InvalidInputError("limit must be 1..1000");
    validateFilter(filter);
    const runs = await queryTraceRuns(
      ctx.db.dataSource.manager,
      {
        ...filter,
        startTimeFrom: optionalTime(startTimeFrom, "start_time"),
        startTimeTo: optionalTime(startTimeTo, "end_time"),
      },
      { limit: limit + 1, order, offset: cursor ? 0 : offset, after: cursor ? decodeTraceCursor(cursor) : undefined },
    );
    const page = runs.slice(0, limit);
    const last = page[page.length - 1];
    return { runs: page, nextCursor: runs.length > limit ? encodeTraceCursor(last) : null };
  },

  /** How many runs match the filter `query` pages through (connections' totalCount). */
  async count(ctx: ServiceContext, input: Omit<QueryTraceRunsInput, "limit" | "cursor" | "offset" | "order">): Promise<number> {
    requireOperator(ctx, "Traces");
    const { startTimeFrom, startTimeTo, ...filter } = input;
    validateFilter(filter);
    return countTraceRuns(ctx.db.dataSource.manager, {
      ...filter,
      startTimeFrom: optionalTime(startTimeFrom, "start_time"),
      startTimeTo: optionalTime(startTimeTo, "end_time"),
    });
  },

  /** The direct children of a run, in execution order. */
  async listChildren(ctx: ServiceContext, runId: string): Promise<TraceRun[]> {
    requireOperator(ctx, "Traces");
    if (!UUID.test(runId)) return [];
    return listTraceRunChildren(ctx.db.dataSource.manager, [runId.toLowerCase()]);
  },

  /** For DataLoaders and child_run_ids: each run's direct child ids, in key order. */
  async listChildIds(ctx: ServiceContext, runIds: readonly string[]): Promise<string[][]> {
    requireOperator(ctx, "Traces");
    const valid = runIds.filter((id) => UUID.test(id)).map((id) => id.toLowerCase());
    const byParent = await listTraceChildIds(ctx.db.dataSource.manager, valid);
    return runIds.map((id) => byParent.get(id.toLowerCase()) ?? []);
  },

  /** A whole trace as a tree, children in execution order. */
  async getTree(ctx: ServiceContext, traceId: string): Promise<TraceTree> {
    requireOperator(ctx, "Traces");
    const runs = UUID.test(traceId) ? await listTraceRunsOfTrace(ctx.db.dataSource.manager, traceId.toLowerCase()) : [];
    if (runs.length === 0) throw new NotFoundError(`Trace '${traceId}' not found`);
    const nodes = new Map<string, TraceRunNode>(runs.map((run) => [run.id, { run, children: [] }]));
    const roots: TraceRunNode[] = [];
    for (const node of nodes.values()) {
      const parent = node.run.parentRunId ? nodes.get(node.run.parentRunId) : undefined;
      if (parent) parent.children.push(node);
      else roots.push(node);
    }
    return { traceId: traceId.toLowerCase(), runs, roots };
  },

  /** Token and cost sums over every run of a trace. */
  async traceTotals(ctx: ServiceContext, traceId: string): Promise<UsageTotals> {
    requireOperator(ctx, "Traces");
    const [totals] = await tracesService.totalsForTraces(ctx, [traceId]);
    if (!totals) throw new NotFoundError(`Trace '${traceId}' not found`);
    return totals;
  },

  /** For DataLoaders: sums per trace in key order, null for traces without runs. */
  async totalsForTraces(ctx: ServiceContext, traceIds: readonly string[]): Promise<(UsageTotals | null)[]> {
    requireOperator(ctx, "Traces");
    return totalsByKey(ctx, "trace", traceIds);
  },

  /** For DataLoaders: each trace's first token and interrupt, in key order; null for traces without runs. */
  async progressOfTraces(ctx: ServiceContext, traceIds: readonly string[]): Promise<(TraceProgress | null)[]> {
    requireOperator(ctx, "Traces");
    const valid = traceIds.filter((id) => UUID.test(id)).map((id) => id.toLowerCase());
    const progress = await summarizeTraceProgress(ctx.db.dataSource.manager, valid);
    return traceIds.map((id) => progress.get(id.toLowerCase()) ?? null);
  },

  /** For DataLoaders: sums over the traces of each Hangar run (extra.metadata.run_id), in key order. */
  async totalsForHangarRuns(ctx: ServiceContext, runIds: readonly string[]): Promise<UsageTotals[]> {
    // Usage of runs the caller already holds (authorized as their threads): numbers only.
    return (await totalsByKey(ctx, "hangarRun", runIds)).map((totals) => totals ?? ZERO_TOTALS);
  },

  /** Sums per model, provider, assistant, UTC day, thread or metadata value over runs that started in [from, to). */
  async summarizeUsage(ctx: ServiceContext, input: SummarizeUsageInput): Promise<UsageSummaryRow[]> {
    requireOperator(ctx, "Traces");
    const { from, to } = requireRange(input.from, input.to);
    const limit = requireLimit(input.limit ?? DEFAULT_USAGE_ROWS, MAX_USAGE_ROWS, "first");
    const isByMetadata = input.groupBy.includes("metadata");
    const metadataKey = input.metadataKey?.trim();
    if (isByMetadata && !metadataKey) throw new InvalidInputError("metadataKey is required to group by METADATA");
    if (!isByMetadata && input.metadataKey !== undefined) throw new InvalidInputError("metadataKey is given but groupBy lacks METADATA");
    if (metadataKey && metadataKey.length > MAX_METADATA_KEY_LENGTH) {
      throw new InvalidInputError(`metadataKey must be at most ${MAX_METADATA_KEY_LENGTH} characters`);
    }
    return summarizeTraceUsage(ctx.db.dataSource.manager, input.groupBy, {
      from,
      to,
      runTypes: input.runTypes,
      metadataKey,
      order: input.order ?? "keys",
      limit,
    });
  },

  /** The traces whose root started in [from, to), by the sum of their runs' costs, most expensive first. */
  async rankExpensiveTraces(ctx: ServiceContext, input: { from: RunTimeInput; to: RunTimeInput; limit?: number }): Promise<ExpensiveTrace[]> {
    requireOperator(ctx, "Traces");
    const { from, to } = requireRange(input.from, input.to);
    const limit = requireLimit(input.limit ?? DEFAULT_EXPENSIVE_TRACES, MAX_EXPENSIVE_TRACES, "first");
    const ranked = await rankExpensiveTraces(ctx.db.dataSource.manager, { from, to, limit });
    const roots = new Map((await getTraceRuns(ctx.db.dataSource.manager, ranked.map((trace) => trace.rootRunId))).map((run) => [run.id, run]));
    // A root deleted between the two reads (retention) leaves its trace out rather than half-shown.
    return ranked.flatMap(({ rootRunId, totals }) => {
      const root = roots.get(rootRunId);
      return root ? [{ root, totals }] : [];
    });
  },
};

function requireRange(fromInput: RunTimeInput, toInput: RunTimeInput): { from: string; to: string } {
  const from = optionalTime(fromInput, "from");
  const to = optionalTime(toInput, "to");
  if (!from || !to || from >= to) throw new InvalidInputError("from and to must be times with from earlier than to");
  return { from, to };
}

function requireLimit(limit: number, max: number, argument: string): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > max) throw new InvalidInputError(`${argument} must be 1..${max}, got ${limit}`);
  return limit;
}

function validateFilter(filter: TraceRunFilter): void {
  const alternatives = filter.metadataAnyOf?.length;
  if (alternatives !== undefined && (alternatives === 0 || alternatives > MAX_METADATA_ALTERNATIVES)) {
    throw new InvalidInputError(`metadataAnyOf must list 1 to ${MAX_METADATA_ALTERNATIVES} objects, got ${alternatives}`);
  }
  requireUuids(filter.ids ?? [], "id");
  requireUuids([filter.traceId], "trace_id");
  requireUuids([filter.parentRunId], "parent_run_id");
  requireUuids([filter.hangarRunId], "hangar_run_id");
  requireUuids([filter.threadId], "thread_id");
  requireUuids([filter.assistantId], "assistant_id");
  requireUuids(filter.sessionIds ?? [], "session");
}

async function totalsByKey(ctx: ServiceContext, by: "trace" | "hangarRun", keys: readonly string[]) {
  const valid = keys.filter((key) => UUID.test(key)).map((key) => key.toLowerCase());
  const totals = await sumTraceUsage(ctx.db.dataSource.manager, by, valid);
  return keys.map((key) => totals.get(key.toLowerCase()) ?? null);
}

function requireUuids(ids: readonly (string | undefined)[], field: string): void {
  const bad = ids.find((id) => id !== undefined && !UUID.test(id));
  if (bad !== undefined) throw new InvalidInputError(`${field} must be UUIDs, got '${bad}'`);
}

function optionalTime(value: RunTimeInput | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const time = parseRunTime(value);
  if (time === undefined) throw new InvalidInputError(`${field} must be an ISO 8601 time or epoch milliseconds`);
  return time;
}
