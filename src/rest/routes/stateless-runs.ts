import { Hono } from "hono";
import type { HttpEnv } from "../../http/http-env.js";
import type { HangarRuntime } from "../../runtime.js";
import { runsService } from "../../services/runs.service.js";
import { cancelRuns } from "../../services/run-lifecycle/cancel-run.js";
import { createRun, createRunBatch } from "../../services/run-lifecycle/create-run.js";
import { createRunFromWire, runToWire } from "../run-wire.js";
import { RunBatchCreate, RunBulkCancel, RunCreate, RunStreamQuery } from "../schemas/runs.js";
import { joinRunStream, streamNewRun, waitForNewRun } from "./run-endpoints.js";
import { createRouteKit } from "./route-kit.js";

/** /runs: stateless runs (each on a temporary thread) and bulk cancel. */
export function statelessRunRoutes(runtime: HangarRuntime): Hono<HttpEnv> {
  const { serviceContext: ctx, body, query, runHeaders } = createRouteKit(runtime);
  const routes = new Hono<HttpEnv>();

  // Create Background Run (stateless)
  routes.post("/", async (c) => {
    const run = await createRun(ctx(c), createRunFromWire(await body(c, RunCreate), null, { headers: runHeaders(c) }));
    c.header("Content-Location", `/runs/${run.runId}`);
    return c.json(runToWire(run));
  });

  // Create Run, Stream Output (stateless)
  routes.post("/stream", async (c) => streamNewRun(c, ctx(c), await body(c, RunCreate), null, runHeaders(c)));

  // Create Run, Wait for Output (stateless)
  routes.post("/wait", async (c) => waitForNewRun(c, ctx(c), await body(c, RunCreate), null, runHeaders(c)));

  // Create Run Batch: all or nothing (createRunBatch).
  routes.post("/batch", async (c) => {
    const requests = await body(c, RunBatchCreate);
    const inputs = requests.map((request) => createRunFromWire(request, null, { headers: runHeaders(c) }));
    return c.json((await createRunBatch(ctx(c), inputs)).map(runToWire));
  });

  // Cancel Runs (bulk)
  routes.post("/cancel", async (c) => {
    const request = await body(c, RunBulkCancel);
    const runIds =
      request.run_ids ??
      (await runsService.listActive(ctx(c), { threadId: request.thread_id, status: request.status })).map((run) => run.runId);
    await cancelRuns(ctx(c), { runIds, action: request.action });
    return c.body(null, 204);
  });

  // Join Run Stream (stateless run, by id)
  routes.get("/:run_id/stream", async (c) => {
    const run = await runsService.get(ctx(c), null, c.req.param("run_id"));
    return joinRunStream(c, ctx(c), run, query(c, RunStreamQuery));
  });

  return routes;
}
