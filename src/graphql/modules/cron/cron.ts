import { CRON_SORT_FIELDS, describeCronPayload, type Cron } from "../../../domain/cron.js";
import { cronsService, MAX_SCHEDULE_PREVIEW } from "../../../services/crons.service.js";
import { builder } from "../../builder.js";
import { omitNull } from "../../input-values.js";
import { CRON_RUNS_LIMIT, OWNER_CRONS_LIMIT } from "../../loaders.js";
import { resolveListPage, resolveServicePage } from "../../pagination.js";
import { AssistantRef } from "../assistant.js";
import { enumValuesOf, SortOrder } from "../enums.js";
import { MultitaskStrategy, RunRef } from "../run/run.js";
import { ThreadRef } from "../thread.js";

export const CronRef = builder.objectRef<Cron>("Cron");

export const OnRunCompleted = builder.enumType("OnRunCompleted", {
  description: "What becomes of the new thread a stateless cron's firing runs on, once the run ends.",
  values: {
    DELETE: { value: "delete" as const, description: "Delete it, with its run (the default)." },
    KEEP: { value: "keep" as const, description: "Keep it, to read the run's results later." },
  },
});

const CronSortBy = builder.enumType("CronSortBy", { values: enumValuesOf(CRON_SORT_FIELDS) });

builder.node(CronRef, {
  description: "A cron job: runs an assistant on a schedule, on its thread or (stateless) on a new thread per firing.",
  id: { resolve: (cron) => cron.cronId },
  loadWithoutCache: (id, ctx) => ctx.loaders.cron.load(id),
  fields: (t) => ({
    cronId: t.exposeID("cronId", { description: "The raw UUID (REST's cron_id)." }),
    assistantId: t.exposeID("assistantId", { description: "The assistant's UUID, even when created with a graph name." }),
    threadId: t.exposeID("threadId", { nullable: true, description: "null for a stateless cron." }),
    schedule: t.exposeString("schedule", { description: "5 fields: minute hour day-of-month month day-of-week." }),
    timezone: t.exposeString("timezone", { description: "The IANA zone the schedule is read in." }),
    input: t.field({ type: "JSON", nullable: true, description: "Sent as the run's input at every firing.", resolve: (cron) => cron.payload.input ?? null }),
    payload: t.field({
      type: "JSONObject",
      description: "Everything each firing's run is created with, as REST's payload.",
      resolve: (cron) => describeCronPayload(cron),
    }),
    multitaskStrategy: t.field({
      type: MultitaskStrategy,
      description: "What a firing does when the thread already has a run (thread crons); ENQUEUE by default.",
      resolve: (cron) => cron.payload.multitaskStrategy,
    }),
    metadata: t.expose("metadata", { type: "JSONObject", description: "Also on each firing's run, with cron_id." }),
    endTime: t.expose("endTime", { type: "DateTime", nullable: true, description: "No firing after this instant." }),
    enabled: t.exposeBoolean("enabled"),
    onRunCompleted: t.expose("onRunCompleted", { type: OnRunCompleted, nullable: true, description: "Stateless crons only." }),
    nextRunAt: t.expose("nextRunDate", {
      type: "DateTime",
      nullable: true,
      description: "The next slot; null when disabled, past end_time, or the schedule ran out.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    assistant: t.field({
      type: AssistantRef,
      nullable: true,
      description: "Batched.",
      resolve: (cron, _args, ctx) => ctx.loaders.assistant.load(cron.assistantId),
    }),
    thread: t.field({
      type: ThreadRef,
      nullable: true,
      description: "The thread it runs on (batched); null for a stateless cron.",
      resolve: (cron, _args, ctx) => (cron.threadId ? ctx.loaders.thread.load(cron.threadId) : null),
    }),
    runs: t.connection(
      {
        type: RunRef,
        description:
          `Runs its firings queued, newest first (the newest ${CRON_RUNS_LIMIT}; batched across crons). ` +
          "A stateless cron's runs go with their thread unless onRunCompleted is KEEP.",
        resolve: async (cron, args, ctx) => {
          const { runs, total } = await ctx.loaders.cronRuns.load(cron.cronId);
          return { ...resolveListPage(args, runs), totalCount: () => total };
        },
      },
      { name: "CronRunConnection" },
      { name: "CronRunEdge" },
    ),
    lastRun: t.field({
      type: RunRef,
      nullable: true,
      description: "The newest run a firing queued (batched with runs); null before the first firing.",
      resolve: async (cron, _args, ctx) => (await ctx.loaders.cronRuns.load(cron.cronId)).runs[0] ?? null,
    }),
  }),
});

// Declared here rather than in thread.ts / assistant.ts: Cron refers to both, so this keeps one direction.
builder.objectField(ThreadRef, "crons", (t) =>
  t.connection(
    {
      type: CronRef,
      description: `Crons that run on this thread, oldest first (at most ${OWNER_CRONS_LIMIT}; batched across threads).`,
      resolve: async (thread, args, ctx) => resolveListPage(args, await ctx.loaders.threadCrons.load(thread.threadId)),
    },
    { name: "ThreadCronConnection" },
    { name: "ThreadCronEdge" },
  ),
);

builder.objectField(AssistantRef, "crons", (t) =>
  t.connection(
    {
      type: CronRef,
      description: `Crons of this assistant, oldest first (at most ${OWNER_CRONS_LIMIT}; batched across assistants).`,
      resolve: async (assistant, args, ctx) => resolveListPage(args, await ctx.loaders.assistantCrons.load(assistant.assistantId)),
    },
    { name: "AssistantCronConnection" },
    { name: "AssistantCronEdge" },
  ),
);

builder.queryFields((t) => ({
  cron: t.field({
    type: CronRef,
    description: "One cron; NOT_FOUND when it does not exist.",
    args: { cronId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => cronsService.get(ctx.services, args.cronId),
  }),
  crons: t.connection(
    {
      type: CronRef,
      description: "Crons matching every given filter, in a stable order (ties broken by id).",
      args: {
        assistantId: t.arg.id({ description: "An assistant UUID or a deployed graph's name." }),
        threadId: t.arg.id(),
        enabled: t.arg.boolean(),
        sortBy: t.arg({ type: CronSortBy, defaultValue: "created_at" }),
        sortOrder: t.arg({ type: SortOrder, defaultValue: "desc" }),
      },
      resolve: (_root, args, ctx) => {
        const filter = { assistantId: omitNull(args.assistantId), threadId: omitNull(args.threadId), enabled: omitNull(args.enabled) };
        const order = { sortBy: args.sortBy ?? undefined, sortOrder: args.sortOrder ?? undefined };
        return resolveServicePage(
          args,
          (page) => cronsService.search(ctx.services, { ...filter, ...order, ...page }),
          () => cronsService.count(ctx.services, filter),
        );
      },
    },
    { name: "CronConnection" },
    { name: "CronEdge" },
  ),
  cronSchedulePreview: t.field({
    type: ["DateTime"],
    description:
      "The next `count` firings of a schedule from now (a console's preview); INVALID_INPUT naming the field " +
      "(schedule, timezone or count) when one is wrong.",
    args: {
      schedule: t.arg.string({ required: true, description: "5 fields: minute hour day-of-month month day-of-week." }),
      timezone: t.arg.string({ description: "An IANA zone; default UTC." }),
      count: t.arg.int({ defaultValue: 5, description: `1 to ${MAX_SCHEDULE_PREVIEW}.` }),
    },
    resolve: (_root, args, ctx) =>
      cronsService.previewSchedule(ctx.services, { schedule: args.schedule, timezone: omitNull(args.timezone), count: omitNull(args.count) }),
  }),
}));
