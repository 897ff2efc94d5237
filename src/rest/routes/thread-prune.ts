import { Hono } from "hono";
import type { HttpEnv } from "../../http/http-env.js";
import type { HangarRuntime } from "../../runtime.js";
import { retentionService } from "../../services/retention.service.js";
import { ThreadPruneRequest } from "../schemas/threads.js";
import { createRouteKit } from "./route-kit.js";

/** POST /threads/prune. */
export function threadPruneRoutes(runtime: HangarRuntime): Hono<HttpEnv> {
  const { serviceContext: ctx, body } = createRouteKit(runtime);
  const routes = new Hono<HttpEnv>();

  // Prune Threads
  routes.post("/prune", async (c) => {
    const request = await body(c, ThreadPruneRequest);
    const pruned = await retentionService.pruneThreads(ctx(c), { threadIds: request.thread_ids, strategy: request.strategy ?? "delete" });
    return c.json({ pruned_count: pruned });
  });

  return routes;
}
