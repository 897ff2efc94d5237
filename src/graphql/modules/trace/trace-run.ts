import type { TraceRun, TraceTree, UsageTotals } from "../../../domain/trace-run.js";
import { graphInterruptValues, rootTraceRunStatus, traceRunStatus } from "../../../domain/trace-run-status.js";
import { runTimeToEpochMs, type CanonicalRunTime } from "../../../tracing/ingest/parse-run-time.js";
import { builder } from "../../builder.js";
import type { GraphqlContext } from "../../context.js";
import { resolveListPage } from "../../pagination.js";
import { RenderedMessagesRef } from "./rendered.js";
import { CostRef, costOfRun, TokenUsageRef, UsageTotalsRef, usageOfRun } from "./usage.js";

export const TraceRunRef = builder.objectRef<TraceRun>("TraceRun");
export const TraceRef = builder.objectRef<TraceTree>("Trace");

/** Milliseconds since the epoch, microseconds kept as the fraction. */
function epochMsOf(time: CanonicalRunTime): number {
  return runTimeToEpochMs(time) + Number(time.slice(23, 26)) / 1000;
}

/** A canonical time as a Date (DateTime fields): sub-millisecond digits dropped. */
function dateOf(time: CanonicalRunTime): Date;
function dateOf(time: CanonicalRunTime | null): Date | null;
function dateOf(time: CanonicalRunTime | null): Date | null {
  return time === null ? null : new Date(runTimeToEpochMs(time));
}

/** A root run's trace, read over all its runs (batched per request); null for other runs. */
async function traceProgressOf(run: TraceRun, ctx: GraphqlContext) {
  return run.parentRunId === null && run.traceId ? ctx.loaders.traceProgress.load(run.traceId) : null;
}

/**
 * Milliseconds from the run's start to its first streamed token: its own new_token events, else
 * on a trace's root the earliest first token of any model call in the trace.
 */
async function timeToFirstTokenOf(run: TraceRun, ctx: GraphqlContext): Promise<number | null> {
  const firstTokenTime = run.firstTokenTime ?? (await traceProgressOf(run, ctx))?.firstTokenTime ?? null;
  return firstTokenTime === null ? null : epochMsOf(firstTokenTime) - epochMsOf(run.startTime);
}

builder.node(TraceRunRef, {
  description:
    "One recorded run of a trace (an LLM call, chain, tool …), as ingested through /tracing or recorded by " +
    "Hangar's own graph runs. inputs, outputs, extra, events and error are stored verbatim.",
  id: { resolve: (run) => run.id },
  loadWithoutCache: (id, ctx) => ctx.loaders.traceRun.load(id),
  fields: (t) => ({
    traceRunId: t.exposeID("id", { description: "The raw UUID (LangSmith's run id)." }),
    traceId: t.exposeID("traceId", { nullable: true, description: "The root run's id." }),
    parentRunId: t.exposeID("parentRunId", { nullable: true }),
    dottedOrder: t.exposeString("dottedOrder", { nullable: true }),
    name: t.exposeString("name", { nullable: true }),
    runType: t.exposeString("runType", {
      nullable: true,
      description: "llm, chain, tool, retriever, embedding, prompt, parser …",
    }),
    status: t.string({
      description:
        "As sent; else interrupted (a LangGraph interrupt(); on a trace's root: one of its runs was), error, " +
        "success (ended) or pending.",
      resolve: async (run, _args, ctx) =>
        run.parentRunId === null ? rootTraceRunStatus(run, await traceProgressOf(run, ctx)) : traceRunStatus(run),
    }),
    startTime: t.field({
      type: "DateTime",
      description: "Millisecond precision here; dottedOrder and latencyMs keep microseconds.",
      resolve: (run) => dateOf(run.startTime),
    }),
    endTime: t.field({ type: "DateTime", nullable: true, resolve: (run) => dateOf(run.endTime) }),
    latencyMs: t.float({
      nullable: true,
      description: "endTime - startTime in milliseconds (fraction: microseconds); null while running.",
      resolve: (run) => (run.endTime === null ? null : epochMsOf(run.endTime) - epochMsOf(run.startTime)),
    }),
    firstTokenTime: t.field({
      type: "DateTime",
      nullable: true,
      description: "The earliest new_token event: time to first token is firstTokenTime - startTime.",
      resolve: (run) => dateOf(run.firstTokenTime),
    }),
    timeToFirstTokenMs: t.float({
      nullable: true,
      description: "firstTokenTime - startTime; on a trace's root without its own: to the trace's earliest first token.",
      resolve: (run, _args, ctx) => timeToFirstTokenOf(run, ctx),
    }),
    inputs: t.field({ type: "JSON", nullable: true, resolve: (run) => run.inputs ?? null }),
    outputs: t.field({ type: "JSON", nullable: true, resolve: (run) => run.outputs ?? null }),
    extra: t.expose("extra", { type: "JSONObject", nullable: true }),
    events: t.field({ type: "JSON", nullable: true, resolve: (run) => run.events }),
    error: t.exposeString("error", { nullable: true, description: "As sent; an interrupted run's is GraphInterrupt's." }),
    interrupts: t.field({
      type: "JSON",
      nullable: true,
      description: "An interrupted run's interrupt values (what interrupt() asked), read from its error; else null.",
      resolve: (run) => (run.error === null ? null : graphInterruptValues(run.error)),
    }),
    tags: t.exposeStringList("tags"),
    sessionName: t.exposeString("sessionName", { nullable: true, description: "The LangSmith project name." }),
    modelName: t.exposeString("modelName", { nullable: true }),
    provider: t.exposeString("provider", { nullable: true }),
    hangarRunId: t.exposeID("hangarRunId", { nullable: true, description: "The Hangar run it belongs to (metadata.run_id)." }),
    threadId: t.exposeID("threadId", { nullable: true, description: "metadata.thread_id" }),
    assistantId: t.exposeID("assistantId", { nullable: true, description: "metadata.assistant_id" }),
    warnings: t.exposeStringList("warnings", { description: "What was stored as given but did not validate." }),
    receivedAt: t.expose("receivedAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    rendered: t.expose("rendered", {
      type: RenderedMessagesRef,
      nullable: true,
      description: "The messages in the native format; LLM runs only.",
    }),
    usage: t.field({
      type: TokenUsageRef,
      nullable: true,
      description: "The run's own tokens; null when it has none (only LLM runs do).",
      resolve: usageOfRun,
    }),
    cost: t.field({
      type: CostRef,
      nullable: true,
      description: "The run's own cost; null for runs never priced.",
      resolve: costOfRun,
    }),
    totals: t.field({
      type: UsageTotalsRef,
      nullable: true,
      description: "On a trace's root run: sums over every run of the trace (batched); null on other runs.",
      resolve: (run, _args, ctx) => (run.parentRunId === null && run.traceId ? ctx.loaders.traceTotals.load(run.traceId) : null),
    }),
    children: t.connection(
      {
        type: TraceRunRef,
        description: "The direct children in execution order (batched: one query per tree level for ids, one for runs).",
        resolve: async (run, args, ctx) => {
          const page = resolveListPage(args, await ctx.loaders.traceRunChildIds.load(run.id));
          const runs = await ctx.loaders.traceRun.loadMany(page.edges.map((edge) => edge.node));
          const edges = page.edges.flatMap((edge, index) => {
            const child = runs[index];
            return child && !(child instanceof Error) ? [{ cursor: edge.cursor, node: child }] : [];
          });
          return { ...page, edges };
        },
      },
      { name: "TraceRunChildConnection" },
      { name: "TraceRunChildEdge" },
    ),
  }),
});

builder.objectType(TraceRef, {
  description: "A whole trace: the tree of runs under one root.",
  fields: (t) => ({
    traceId: t.exposeID("traceId"),
    root: t.field({
      type: TraceRunRef,
      nullable: true,
      description: "The run whose id is the trace id (else the first run without a parent in the trace).",
      resolve: (tree) => tree.runs.find((run) => run.id === tree.traceId) ?? tree.roots[0]?.run ?? null,
    }),
    runs: t.connection(
      {
        type: TraceRunRef,
        description: "Every run of the trace, depth first in execution order (dotted_order).",
        resolve: (tree, args) => resolveListPage(args, tree.runs),
      },
      { name: "TraceRunListConnection" },
      { name: "TraceRunListEdge" },
    ),
    timeToFirstTokenMs: t.float({
      nullable: true,
      description: "From the root's start to the earliest first token of any model call in the trace; null when none streamed.",
      resolve: (tree, _args, ctx) => {
        const root = tree.runs.find((run) => run.id === tree.traceId) ?? tree.roots[0]?.run;
        return root ? timeToFirstTokenOf(root, ctx) : null;
      },
    }),
    totals: t.field({
      type: UsageTotalsRef,
      description: "Sums over every run of the trace (batched).",
      resolve: async (tree, _args, ctx) => (await ctx.loaders.traceTotals.load(tree.traceId)) ?? zeroTotals(),
    }),
  }),
});

function zeroTotals(): UsageTotals {
  const [promptCost, completionCost, totalCost] = ["0", "0", "0"];
  return { runCount: 0, modelNames: [], promptTokens: 0, completionTokens: 0, totalTokens: 0, promptCost, completionCost, totalCost };
}
