import type { RunStreamEvent } from "../../../domain/run-event.js";
import {
  CANCEL_ACTIONS,
  MULTITASK_STRATEGIES,
  RUN_STATUSES,
  STREAM_MODES,
  type Run,
  describeRunKwargs,
  type StreamMode as StreamModeValue,
} from "../../../domain/run.js";
import { MAX_RUN_EVENTS_PER_READ, runEventsService } from "../../../services/run-events.service.js";
import { runsService } from "../../../services/runs.service.js";
import { streamModeOfEvent } from "../../../streaming/read-run-stream.js";
import { builder } from "../../builder.js";
import { omitNull } from "../../input-values.js";
import { THREAD_RUNS_LIMIT } from "../../loaders.js";
import { resolveListPage } from "../../pagination.js";
import { AssistantRef } from "../assistant.js";
import { enumValuesOf } from "../enums.js";
import { ThreadRef } from "../thread.js";
import { TraceRunRef } from "../trace/trace-run.js";
import { CostRef, costOfTotals, TokenUsageRef, usageOfTotals } from "../trace/usage.js";

export const RunRef = builder.objectRef<Run>("Run");
export const RunEventRef = builder.objectRef<RunStreamEvent>("RunEvent");

export const RunStatus = builder.enumType("RunStatus", { values: enumValuesOf(RUN_STATUSES) });
export const MultitaskStrategy = builder.enumType("MultitaskStrategy", {
  description: "What a new run does when its thread already has a pending or running run.",
  values: enumValuesOf(MULTITASK_STRATEGIES),
});
export const CancelAction = builder.enumType("CancelAction", {
  description: "interrupt keeps the cancelled run (interrupted) and what it wrote; rollback deletes both.",
  values: enumValuesOf(CANCEL_ACTIONS),
});
// `messages-tuple` is not a GraphQL name: MESSAGES_TUPLE.
export const StreamMode = builder.enumType("StreamMode", {
  values: Object.fromEntries(STREAM_MODES.map((mode) => [mode.toUpperCase().replace("-", "_"), { value: mode }])) as Record<
    string,
    { value: StreamModeValue }
  >,
});

builder.objectType(RunEventRef, {
  description: "One event of a run's stream, as SSE sends it (`event:` name and `data:` payload).",
  fields: (t) => ({
    runId: t.exposeID("runId"),
    threadId: t.exposeID("threadId"),
    seq: t.exposeInt("seq", { description: "1, 2, … per run; afterSeq here. (The REST SSE id is seq - 1: LangGraph Platform counts from 0.)" }),
    event: t.exposeString("event", { description: "The SSE event name: metadata, values, updates|child:1, messages/partial, error, …" }),
    mode: t.string({
      description: "The stream mode: the event name before any `/` or `|` (metadata and error are their own).",
      resolve: (event) => streamModeOfEvent(event.event),
    }),
    namespace: t.stringList({
      description: "The subgraph path of a subgraph's event (`updates|child:1|grandchild:2`); empty for the graph's own.",
      resolve: (event) => event.event.split("|").slice(1),
    }),
    data: t.field({ type: "JSON", nullable: true, resolve: (event) => JSON.parse(event.data) as unknown }),
  }),
});

builder.node(RunRef, {
  description: "One execution of an assistant's graph on a thread.",
  id: { resolve: (run) => run.runId },
  loadWithoutCache: (id, ctx) => ctx.loaders.run.load(id),
  fields: (t) => ({
    runId: t.exposeID("runId", { description: "The raw UUID (REST's run_id)." }),
    threadId: t.exposeID("threadId"),
    assistantId: t.exposeID("assistantId", { description: "The assistant's UUID, even when the run was created with a graph name." }),
    status: t.expose("status", { type: RunStatus }),
    metadata: t.expose("metadata", { type: "JSONObject" }),
    multitaskStrategy: t.expose("multitaskStrategy", { type: MultitaskStrategy }),
    kwargs: t.field({
      type: "JSONObject",
      description: "What the run was created with (input, command, context, config, stream_mode, …), as REST's kwargs.",
      resolve: (run) => describeRunKwargs(run.kwargs),
    }),
    attempt: t.exposeInt("attempt", { description: "0 until a worker starts it; +1 each time a crashed worker's run is taken over." }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    error: t.expose("error", { type: "JSON", nullable: true, description: "{error, message} when the run failed." }),
    thread: t.field({
      type: ThreadRef,
      nullable: true,
      description: "Batched; null once deleted (a stateless run's thread is, when the run ends).",
      resolve: (run, _args, ctx) => ctx.loaders.thread.load(run.threadId),
    }),
    assistant: t.field({
      type: AssistantRef,
      nullable: true,
      description: "Batched; null once deleted.",
      resolve: (run, _args, ctx) => ctx.loaders.assistant.load(run.assistantId),
    }),
    // One read of the event store per run: select it on a run, not across a long list.
    events: t.field({
      type: [RunEventRef],
      description: "The run's stored stream events in order (what SSE replays), live runs included so far.",
      args: {
        afterSeq: t.arg.int({ description: "Only events after this seq (the last one seen)." }),
        first: t.arg.int({ description: `At most this many: default and maximum ${MAX_RUN_EVENTS_PER_READ}.` }),
      },
      resolve: (run, args, ctx) =>
        runEventsService.list(ctx.services, run, { afterSeq: omitNull(args.afterSeq), limit: omitNull(args.first) }),
    }),
    trace: t.field({
      type: TraceRunRef,
      nullable: true,
      description: "The root run of the run's trace (its id is the run's id; batched); null until recorded.",
      resolve: (run, _args, ctx) => ctx.loaders.traceRun.load(run.runId),
    }),
    usage: t.field({
      type: TokenUsageRef,
      description: "Tokens summed over the run's traces (batched); zeros when nothing was recorded.",
      resolve: async (run, _args, ctx) => usageOfTotals(await ctx.loaders.hangarRunTotals.load(run.runId)),
    }),
    cost: t.field({
      type: CostRef,
      description: "Cost summed over the run's traces (batched); \"0\" when nothing was priced.",
      resolve: async (run, _args, ctx) => costOfTotals(await ctx.loaders.hangarRunTotals.load(run.runId)),
    }),
  }),
});

// Declared here rather than in thread.ts: Run refers to Thread, so this keeps one direction.
builder.objectField(ThreadRef, "runs", (t) =>
  t.connection(
    {
      type: RunRef,
      description: `The thread's runs, newest first (the newest ${THREAD_RUNS_LIMIT}; batched across threads).`,
      args: { status: t.arg({ type: RunStatus }) },
      resolve: async (thread, args, ctx) => {
        const { runs, total } = await ctx.loaders.threadRuns.load({ threadId: thread.threadId, status: args.status ?? null });
        return { ...resolveListPage(args, runs), totalCount: () => total };
      },
    },
    { name: "ThreadRunConnection" },
    { name: "ThreadRunEdge" },
  ),
);

builder.queryFields((t) => ({
  run: t.field({
    type: RunRef,
    description: "One run, of any thread; NOT_FOUND when it does not exist.",
    args: { runId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => runsService.get(ctx.services, null, args.runId),
  }),
}));
