import { Hono } from "hono";
import type { z } from "zod";
import type { CreateFeedbackInput, TraceFeedback } from "../../domain/trace-feedback.js";
import type { HttpEnv } from "../../http/http-env.js";
import type { HangarRuntime } from "../../runtime.js";
import { traceFeedbackService } from "../../services/trace-feedback.service.js";
import { FeedbackCreateSchema, FeedbackListQuery, FeedbackUpdateSchema } from "../schemas/tracing-feedback.js";
import { createRouteKit, takePage } from "./route-kit.js";

/** /tracing/feedback: LangSmith's feedback API on Hangar's trace runs. */
export function tracingFeedbackRoutes(runtime: HangarRuntime): Hono<HttpEnv> {
  const { serviceContext: ctx, body, query } = createRouteKit(runtime);
  const routes = new Hono<HttpEnv>();

  // LangSmith: Create Feedback
  routes.post("/", async (c) => {
    const feedback = await traceFeedbackService.create(ctx(c), feedbackFromWire(await body(c, FeedbackCreateSchema)));
    return c.json(feedbackToWire(feedback));
  });

  // LangSmith: Read Feedbacks (offset pages; the SDK stops at a short page)
  routes.get("/", async (c) => {
    const { run, key, source, limit, offset } = query(c, FeedbackListQuery);
    const rows = await traceFeedbackService.list(ctx(c), { runIds: run, keys: key, sourceTypes: source }, { limit: limit + 1, offset });
    return c.json(takePage(c, rows, { limit, offset }).map(feedbackToWire));
  });

  // LangSmith: Read Feedback
  routes.get("/:feedback_id", async (c) => c.json(feedbackToWire(await traceFeedbackService.get(ctx(c), c.req.param("feedback_id")))));

  // LangSmith: Update Feedback
  routes.patch("/:feedback_id", async (c) => {
    const changes = await body(c, FeedbackUpdateSchema);
    return c.json(feedbackToWire(await traceFeedbackService.update(ctx(c), c.req.param("feedback_id"), changes)));
  });

  // LangSmith: Delete Feedback
  routes.delete("/:feedback_id", async (c) => {
    await traceFeedbackService.delete(ctx(c), c.req.param("feedback_id"));
    return c.json({});
  });

  return routes;
}

/** LangSmith's FeedbackCreateSchema (a POST body or a multipart `feedback.<id>` part) → the service input. */
export function feedbackFromWire(request: z.infer<typeof FeedbackCreateSchema>): CreateFeedbackInput {
  return {
    id: request.id,
    runId: request.run_id,
    traceId: request.trace_id,
    key: request.key,
    score: request.score,
    value: request.value,
    comment: request.comment,
    correction: request.correction,
    source: request.feedback_source,
  };
}

/** LangSmith's FeedbackSchema. */
export function feedbackToWire(feedback: TraceFeedback) {
  return {
    id: feedback.id,
    created_at: feedback.createdAt,
    modified_at: feedback.modifiedAt,
    run_id: feedback.runId,
    trace_id: feedback.traceId,
    key: feedback.key,
    score: feedback.score,
    value: feedback.value,
    comment: feedback.comment,
    correction: feedback.correction,
    feedback_source: feedback.source,
    session_id: null,
    comparative_experiment_id: null,
    feedback_group_id: null,
    extra: null,
  };
}
