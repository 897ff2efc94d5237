import { tracesService } from "../../../services/traces.service.js";
import type { UsageSummaryRow } from "../../../domain/trace-run.js";
import type { UsageGrouping } from "../../../domain/trace-run.js";
import { builder } from "../../builder.js";

const UsageGroupBy = builder.enumType("UsageGroupBy", {
  values: {
    MODEL: { value: "model" as UsageGrouping },
    PROVIDER: { value: "provider" as UsageGrouping },
    ASSISTANT: { value: "assistant" as UsageGrouping },
    DAY: { value: "day" as UsageGrouping, description: "The UTC day the run started." },
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
      "keys (none: one row of totals), ordered by day, model, provider, assistant with nulls last.",
    args: {
      groupBy: t.arg({ type: [UsageGroupBy], required: true, defaultValue: [] }),
      from: t.arg({ type: "DateTime", required: true }),
      to: t.arg({ type: "DateTime", required: true }),
      runTypes: t.arg.stringList({ description: 'Only these run types (default every one; ["llm"]: model calls only).' }),
    },
    resolve: (_root, args, ctx) =>
      tracesService.summarizeUsage(ctx.services, {
        from: args.from,
        to: args.to,
        groupBy: args.groupBy,
        runTypes: args.runTypes ?? undefined,
      }),
  }),
}));
