import type { TraceFeedback } from "../../../domain/trace-feedback.js";
import { traceFeedbackService } from "../../../services/trace-feedback.service.js";
import { builder } from "../../builder.js";
import { omitNull } from "../../input-values.js";
import { TraceRunRef } from "./trace-run.js";

/** Feedback on trace runs: LangSmith's feedback API (/tracing/feedback) as GraphQL. */
export const TraceFeedbackRef = builder.objectRef<TraceFeedback>("TraceFeedback");

const SCORE = "A number (four decimals kept) or a boolean (stored as 1 or 0).";

TraceFeedbackRef.implement({
  description: "A judgement of a trace run under a key (correctness, helpfulness …): score, value, comment and/or correction.",
  fields: (t) => ({
    feedbackId: t.exposeID("id"),
    traceRunId: t.exposeID("runId"),
    traceId: t.exposeID("traceId", { nullable: true }),
    key: t.exposeString("key"),
    score: t.exposeFloat("score", { nullable: true }),
    value: t.field({ type: "JSON", nullable: true, resolve: (feedback) => feedback.value }),
    comment: t.exposeString("comment", { nullable: true }),
    correction: t.field({ type: "JSON", nullable: true, resolve: (feedback) => feedback.correction }),
    sourceType: t.string({ description: "api, model, app … (LangSmith's feedback_source.type).", resolve: (feedback) => feedback.source.type }),
    sourceMetadata: t.field({ type: "JSONObject", resolve: (feedback) => feedback.source.metadata }),
    createdAt: t.field({ type: "DateTime", resolve: (feedback) => new Date(feedback.createdAt) }),
    modifiedAt: t.field({ type: "DateTime", resolve: (feedback) => new Date(feedback.modifiedAt) }),
  }),
});

builder.objectField(TraceRunRef, "feedback", (t) =>
  t.field({
    type: [TraceFeedbackRef],
    description: "Every feedback on this run, oldest first.",
    resolve: (run, _args, ctx) => ctx.loaders.traceRunFeedback.load(run.id),
  }),
);

export const TraceFeedbackFilterInput = builder.inputType("TraceFeedbackFilter", {
  description: "Runs with a feedback under this key (and score range, inclusive).",
  fields: (t) => ({
    key: t.string({ required: true }),
    scoreMin: t.float(),
    scoreMax: t.float(),
    anyRunOfTrace: t.boolean({
      defaultValue: true,
      description: "The feedback may be on any run of the run's trace (true: a trace whose LLM call was judged matches), or must be on the run itself.",
    }),
  }),
});

builder.relayMutationField(
  "createTraceFeedback",
  {
    inputFields: (t) => ({
      traceRunId: t.id({ required: true }),
      key: t.string({ required: true }),
      score: t.field({ type: "JSON", description: SCORE }),
      value: t.field({ type: "JSON" }),
      comment: t.string(),
      correction: t.field({ type: "JSON" }),
      sourceType: t.string({ description: "Default: app." }),
    }),
  },
  {
    description: "Adds a feedback to a trace run; NOT_FOUND when the run does not exist.",
    resolve: async (_root, { input }, ctx) => ({
      feedback: await traceFeedbackService.create(ctx.services, {
        runId: input.traceRunId,
        key: input.key,
        score: scoreOf(input.score),
        value: input.value,
        comment: input.comment,
        correction: input.correction,
        source: { type: omitNull(input.sourceType) ?? "app" },
      }),
    }),
  },
  { outputFields: (t) => ({ feedback: t.expose("feedback", { type: TraceFeedbackRef }) }) },
);

builder.relayMutationField(
  "updateTraceFeedback",
  {
    inputFields: (t) => ({
      feedbackId: t.id({ required: true }),
      score: t.field({ type: "JSON", description: `${SCORE} null clears it.` }),
      value: t.field({ type: "JSON", description: "null clears it." }),
      comment: t.string({ description: "null clears it." }),
      correction: t.field({ type: "JSON", description: "null clears it." }),
    }),
  },
  {
    description: "Changes the given fields (an absent field is kept, null clears it).",
    resolve: async (_root, { input }, ctx) => ({
      feedback: await traceFeedbackService.update(ctx.services, input.feedbackId, {
        score: scoreOf(input.score),
        value: input.value,
        comment: input.comment,
        correction: input.correction,
      }),
    }),
  },
  { outputFields: (t) => ({ feedback: t.expose("feedback", { type: TraceFeedbackRef }) }) },
);

builder.relayMutationField(
  "deleteTraceFeedback",
  { inputFields: (t) => ({ feedbackId: t.id({ required: true }) }) },
  {
    description: "Removes a feedback; NOT_FOUND when it does not exist.",
    resolve: async (_root, { input }, ctx) => {
      await traceFeedbackService.delete(ctx.services, input.feedbackId);
      return { feedbackId: input.feedbackId.toLowerCase() };
    },
  },
  { outputFields: (t) => ({ deletedFeedbackId: t.exposeID("feedbackId") }) },
);

/** The score argument is JSON (a number or a boolean); anything else reaches the service, which names it. */
function scoreOf(score: unknown): number | boolean | null | undefined {
  return score as number | boolean | null | undefined;
}
