import { Hono } from "hono";
import type { HttpEnv } from "../../http/http-env.js";
import type { HangarRuntime } from "../../runtime.js";
import { cronsService } from "../../services/crons.service.js";
import { createCronFromWire, cronAnswerToWire, cronFilterFromWire, searchCronsFromWire, updateCronFromWire } from "../cron-wire.js";
import { CronCountRequest, CronCreate, CronPatch, CronSearchRequest } from "../schemas/crons.js";
import { selectFields } from "../wire.js";
import { createRouteKit, takePage } from "./route-kit.js";

/** /runs/crons: stateless crons, and every cron's update, deletion, search and count. */
export function cronRoutes(runtime: HangarRuntime): Hono<HttpEnv> {
  const { serviceContext: ctx, body } = createRouteKit(runtime);
  const routes = new Hono<HttpEnv>();

  // Create Cron (stateless: each firing runs on a new thread)
  routes.post("/", async (c) => {
    const cron = await cronsService.create(ctx(c), createCronFromWire(await body(c, CronCreate), null));
    return c.json(cronAnswerToWire(cron, null));
  });

  // Search Crons
  routes.post("/search", async (c) => {
    const request = await body(c, CronSearchRequest);
    const input = searchCronsFromWire(request);
    const context = ctx(c);
    const rows = await cronsService.search(context, { ...input, limit: input.limit + 1 });
    const page = takePage(c, rows, input);
    const wantsFirings = !request.select?.length || request.select.includes("last_firing");
    const lastFirings = wantsFirings ? await cronsService.lastFiringsOf(context, page) : new Map();
    return c.json(
      page.map((cron) => {
        return selectFields(cronAnswerToWire(cron, lastFirings.get(cron.cronId)), request.select);
      }),
    );
  });

  // Count Crons
  routes.post("/count", async (c) => {
    return c.json(await cronsService.count(ctx(c), cronFilterFromWire(await body(c, CronCountRequest))));
  });

  // Patch Cron
  routes.patch("/:cron_id", async (c) => {
    const request = await body(c, CronPatch);
    const context = ctx(c);
    const cron = await cronsService.update(context, c.req.param("cron_id"), updateCronFromWire(request));
    const firing = (await cronsService.lastFiringsOf(context, [cron])).get(cron.cronId);
    return c.json(cronAnswerToWire(cron, firing));
  });

  // Delete Cron
  routes.delete("/:cron_id", async (c) => {
    await cronsService.delete(ctx(c), c.req.param("cron_id"));
    return c.body(null, 204);
  });

  return routes;
}

/** /threads/{thread_id}/runs/crons: crons that run on one thread. */
export function threadCronRoutes(runtime: HangarRuntime): Hono<HttpEnv> {
  const { serviceContext: ctx, body } = createRouteKit(runtime);
  const routes = new Hono<HttpEnv>();

  // Create Thread Cron
  routes.post("/:thread_id/runs/crons", async (c) => {
    const request = await body(c, CronCreate);
    return c.json(cronAnswerToWire(await cronsService.create(ctx(c), createCronFromWire(request, c.req.param("thread_id"))), null));
  });

  return routes;
}
