import { Hono } from "hono";
import type { HttpEnv } from "../../http/http-env.js";
import { runEventsService } from "../../services/run-events.service.js";
import { sseResponse, threadStreamPositionOf } from "../../streaming/sse-response.js";
import { runResultsService } from "../../services/run-results.service.js";
import { runsService } from "../../services/runs.service.js";
import { cancelRuns, deleteRun } from "../../services/run-lifecycle/cancel-run.js";
import { createRun } from "../../services/run-lifecycle/create-run.js";
import { createRunFromWire, runToWire } from "../run-wire.js";
import { RunCancelQuery, RunCreate, RunJoinQuery, RunListQuery, RunStreamQuery, ThreadStreamQuery } from "../schemas/runs.js";
import { selectFields } from "../wire.js";
import { NotFoundError } from "../../domain/errors.js";
import { joinRun, joinRunStream, notFoundStream, streamNewRun, waitForNewRun } from "./run-endpoints.js";
import { createRouteKit } from "./route-kit.js";
import type { HangarRuntime } from "../../runtime.js";

/** /threads/{thread_id}/runs: runs on a thread. */
export function threadRunRoutes(runtime: HangarRuntime): Hono<HttpEnv> {
  const { serviceContext: ctx, body, query, runHeaders } = createRouteKit(runtime);
  const routes = new Hono<HttpEnv>();

  // Create Background Run
  routes.post("/:thread_id/runs", async (c) => {
    const request = await body(c, RunCreate);
    const run = await createRun(ctx(c), createRunFromWire(request, c.req.param("thread_id"), { headers: runHeaders(c) }));
    c.header("Content-Location", `/threads/${run.threadId}/runs/${run.runId}`);
    return c.json(runToWire(run));
  });

  // Create Run, Stream Output
  routes.post("/:thread_id/runs/stream", async (c) => streamNewRun(c, ctx(c), await body(c, RunCreate), c.req.param("thread_id"), runHeaders(c)));

  // Create Run, Wait for Output
  routes.post("/:thread_id/runs/wait", async (c) => waitForNewRun(c, ctx(c), await body(c, RunCreate), c.req.param("thread_id"), runHeaders(c)));

  // List Runs
  routes.get("/:thread_id/runs", async (c) => {
    const { select, ...page } = query(c, RunListQuery);
    const runs = await runsService.list(ctx(c), { threadId: c.req.param("thread_id"), ...page });
    return c.json(runs.map((run) => selectFields(runToWire(run), select)));
  });

  // Get Run
  routes.get("/:thread_id/runs/:run_id", async (c) => {
    return c.json(runToWire(await runsService.get(ctx(c), c.req.param("thread_id"), c.req.param("run_id"))));
  });

  // Delete Run
  routes.delete("/:thread_id/runs/:run_id", async (c) => {
    await deleteRun(ctx(c), c.req.param("thread_id"), c.req.param("run_id"));
    return c.body(null, 204);
  });

  // Join Run
  routes.get("/:thread_id/runs/:run_id/join", async (c) => {
    return joinRun(c, ctx(c), c.req.param("thread_id"), c.req.param("run_id"), query(c, RunJoinQuery));
  });

  // Join Run Stream
  routes.get("/:thread_id/runs/:run_id/stream", async (c) => {
    const streamQuery = query(c, RunStreamQuery);
    try {
      const run = await runsService.get(ctx(c), c.req.param("thread_id"), c.req.param("run_id"));
      return joinRunStream(c, ctx(c), run, streamQuery);
    } catch (error) {
      if (error instanceof NotFoundError) return notFoundStream(error);
      throw error;
    }
  });

  // Join Thread Stream: every run's events from now on, or replayed after Last-Event-ID ("-": all)
  routes.get("/:thread_id/stream", async (c) => {
    const { stream_mode: threadModes } = query(c, ThreadStreamQuery);
    const afterPosition = threadStreamPositionOf(c.req.header("Last-Event-ID"));
    const abort = new AbortController();
    const threadId = c.req.param("thread_id");
    const context = ctx(c);
    const events = await runEventsService.openThreadStream(context, { threadId, threadModes, afterPosition, signal: abort.signal });
    return sseResponse(events, { abort, openStreams: context.metrics?.sseStreams });
  });

  // Cancel Run
  routes.post("/:thread_id/runs/:run_id/cancel", async (c) => {
    const { wait, action } = query(c, RunCancelQuery);
    const run = await runsService.get(ctx(c), c.req.param("thread_id"), c.req.param("run_id"));
    await cancelRuns(ctx(c), { runIds: [run.runId], action });
    if (wait) await runResultsService.waitForEnd(ctx(c), run.runId, c.req.raw.signal);
    return c.body(null, wait ? 204 : 202);
  });

  return routes;
}
