import { z } from "zod";
import { MAX_INT4 } from "../../domain/input-bounds.js";
import { JsonObject, optional, QueryList } from "./common.js";

/**
 * LangSmith's feedback API payloads (/tracing/feedback), as langsmith's Client sends them
 * (createFeedback, updateFeedback, listFeedback). Feedback on a project or a comparative
 * experiment has no run in Hangar's store and is refused by name; unknown keys are dropped.
 */
const Uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "must be a UUID");
const Score = z.union([z.number(), z.boolean()], { error: "must be a number or a boolean" });
const NotAboutARun = z.null({ error: "is not supported: Hangar keeps feedback on trace runs only" }).optional();

export const FeedbackCreateSchema = z.object({
  id: optional(Uuid),
  run_id: Uuid,
  trace_id: optional(Uuid),
  key: z.string(),
  score: optional(Score),
  value: z.unknown().optional(),
  comment: optional(z.string()),
  correction: z.unknown().optional(),
  feedback_source: optional(z.object({ type: optional(z.string()), metadata: optional(JsonObject) })),
  comparative_experiment_id: NotAboutARun,
  session_id: optional(Uuid),
});

/** null clears a field; an absent one is kept. */
export const FeedbackUpdateSchema = z.object({
  score: Score.nullable().optional(),
  value: z.unknown().optional(),
  comment: z.string().nullable().optional(),
  correction: z.unknown().optional(),
});

export const FeedbackListQuery = z.object({
  run: optional(QueryList),
  key: optional(QueryList),
  source: optional(QueryList),
  limit: optional(z.coerce.number().int().min(1).max(1000)).transform((value) => value ?? 100),
  offset: optional(z.coerce.number().int().min(0).max(MAX_INT4)).transform((value) => value ?? 0),
});
