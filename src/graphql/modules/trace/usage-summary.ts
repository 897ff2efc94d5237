import {
  DEFAULT_EXPENSIVE_TRACES,
  DEFAULT_USAGE_ROWS,
  MAX_EXPENSIVE_TRACES,
  MAX_USAGE_ROWS,
  tracesService,
} from "../../../services/traces.service.js";
import type { UsageGrouping, UsageOrder, UsageSummaryRow } from "../../../domain/trace-run.js";
import { builder } from "../../builder.js";
import { omitNull } from "../../input-values.js";
import { TraceRunRef } from "./trace-run.js";

const UsageGroupBy = builder.enumType("UsageGroupBy", {
  values: {
    MODEL: { value: "model" as UsageGrouping },
    PROVIDER: { value: "provider" as UsageGrouping },
    ASSISTANT: { value: "assistant" as UsageGrouping },
    DAY: { value: "day" as UsageGrouping, description: "The UTC day the run started." },
    THREAD: {
      value: "thread" as UsageGrouping,
      description: "The run's thread or session: metadata thread_id, session_id or conversation_id, the first present.",
    },
    METADATA: { value: "metadata" as UsageGrouping, description: "The value of the metadata key named by metadataKey." },
  },
});

const UsageOrderBy = builder.enumType("UsageOrderBy", {
  values: {
    KEYS: { value: "keys" as UsageOrder, description: "By day, model, provider, assistant, thread, metadata value; nulls last." },
    COST: { value: "cost" as UsageOrder, description: "Most expensive first (ties: most tokens first, then by keys)." },
  },
});

const UsageSummaryRowRef = builder.objectRef<UsageSummaryRow>("UsageSummaryRow").implement({
  description:
    "Sums over the runs of one group. Keys not grouped by are null, as are keys the group's runs lack " +
    "(e.g. model on chain runs). Token sums are Float: whole numbers that may pass Int's 32-bit range.",
  fields: (t) => ({
    model: t.exposeString("model", { nullable: true }),
    provider: t.exposeString("provider", { nullable: true }),
    assistantId: t.exposeID("assistantId", { nullable: true }),
    day: t.exposeString("day", { nullable: true, description: "YYYY-MM-DD (UTC)." }),
    thread: t.exposeString("thread", { nullable: true, description: "The thread or session id (LangSmith's thread keys, or OTLP's gen_ai.conversation.id); a run without one counts under its trace root's." }),
    metadataValue: t.exposeString("metadataValue", { nullable: true, description: "The metadataKey's value, as text." }),
    runCount: t.exposeInt("runCount"),
    inputTokens: t.float({ resolve: (row) => row.promptTokens }),
    outputTokens: t.float({ resolve: (row) => row.completionTokens }),
    totalTokens: t.float({ resolve: (row) => row.totalTokens }),
    promptCost: t.exposeString("promptCost", { description: "USD, an exact decimal string." }),
    completionCost: t.exposeString("completionCost", { description: "USD, an exact decimal string." }),
    totalCost: t.exposeString("totalCost", { description: "USD, an exact decimal string." }),
  }),
});

builder.queryFields((t) => ({
  usageSummary: t.field({
    type: [UsageSummaryRowRef],
    description:
      "Token and cost sums over trace runs that started in [from, to), one row per combination of the groupBy " +
      "keys (none: one row of totals), at most `first` rows, ordered as orderBy says. Sums are SQL aggregates.",
    args: {
      groupBy: t.arg({ type: [UsageGroupBy], required: true, defaultValue: [] }),
      metadataKey: t.arg.string({ description: "With groupBy METADATA (required there): the extra.metadata key, e.g. user_id." }),
      from: t.arg({ type: "DateTime", required: true }),
      to: t.arg({ type: "DateTime", required: true }),
      runTypes: t.arg.stringList({ description: 'Only these run types (default every one; ["llm"]: model calls only).' }),
      orderBy: t.arg({ type: UsageOrderBy, required: true, defaultValue: "keys" }),
      first: t.arg.int({ required: true, defaultValue: DEFAULT_USAGE_ROWS, description: `1..${MAX_USAGE_ROWS}.` }),
    },
    resolve: (_root, args, ctx) =>
      tracesService.summarizeUsage(ctx.services, {
        from: args.from,
        to: args.to,
        groupBy: args.groupBy,
        runTypes: args.runTypes ?? undefined,
        metadataKey: omitNull(args.metadataKey),
        order: args.orderBy,
        limit: args.first,
      }),
  }),
  expensiveTraces: t.field({
    type: [TraceRunRef],
    description:
      "The root runs of the traces that started in [from, to), by their trace's total cost, most expensive first " +
      "(ties: most tokens first). Each root's `totals` are the sums ranked by.",
    args: {
      from: t.arg({ type: "DateTime", required: true }),
      to: t.arg({ type: "DateTime", required: true }),
      first: t.arg.int({ required: true, defaultValue: DEFAULT_EXPENSIVE_TRACES, description: `1..${MAX_EXPENSIVE_TRACES}.` }),
    },
    resolve: async (_root, args, ctx) => {
      const ranked = await tracesService.rankExpensiveTraces(ctx.services, { from: args.from, to: args.to, limit: args.first });
      // The sums are already read: each root's `totals` costs no second query.
      for (const { root, totals } of ranked) if (root.traceId) ctx.loaders.traceTotals.prime(root.traceId, totals);
      return ranked.map(({ root }) => root);
    },
  }),
}));
