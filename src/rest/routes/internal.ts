import { Hono } from "hono";
import type { HttpEnv } from "../../http/http-env.js";
import type { HangarRuntime } from "../../runtime.js";
import { dataResetService } from "../../services/data-reset.service.js";
import { TruncateRequest } from "../schemas/internal.js";
import { createRouteKit } from "./route-kit.js";

/** POST /internal/truncate, mounted only when HANGAR_ENABLE_TRUNCATE is on. */
export function internalRoutes(runtime: HangarRuntime): Hono<HttpEnv> {
  const { serviceContext: ctx, body } = createRouteKit(runtime);
  const routes = new Hono<HttpEnv>();

  routes.post("/truncate", async (c) => {
    const request = await body(c, TruncateRequest);
    await dataResetService.truncate(ctx(c), {
      runs: request.runs,
      threads: request.threads,
      assistants: request.assistants,
      checkpoints: request.checkpointer ?? request.checkpoint,
      store: request.store,
    });
    return c.json({ ok: true });
  });

  return routes;
}
