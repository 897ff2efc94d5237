import { Hono } from "hono";
import type { HttpEnv } from "../../http/http-env.js";
import type { HangarRuntime } from "../../runtime.js";
import { threadsService } from "../../services/threads.service.js";
import { prefersMinimalReturn, ThreadCountRequest, ThreadCreate, ThreadPatch, ThreadSearchRequest } from "../schemas/threads.js";
import {
  createThreadFromWire,
  searchThreadsFromWire,
  selectFields,
  threadFilterFromWire,
  threadToWire,
} from "../wire.js";
import { superstepsFromWire } from "../thread-state-wire.js";
import { createRouteKit, takePage } from "./route-kit.js";

/** /threads: CRUD, search, count and copy. Thread state and runs live in their own modules. */
export function threadRoutes(runtime: HangarRuntime): Hono<HttpEnv> {
  const { serviceContext: ctx, body } = createRouteKit(runtime);
  const routes = new Hono<HttpEnv>();

  // Create Thread (optionally seeded with supersteps)
  routes.post("/", async (c) => {
    const request = await body(c, ThreadCreate);
    const input = { ...createThreadFromWire(request), supersteps: superstepsFromWire(request.supersteps) };
    return c.json(threadToWire(await threadsService.create(ctx(c), input)));
  });

  // Search Threads
  routes.post("/search", async (c) => {
    const request = await body(c, ThreadSearchRequest);
    const input = searchThreadsFromWire(request);
    const rows = await threadsService.search(ctx(c), { ...input, limit: input.limit + 1 });
    const page = takePage(c, rows, input);
    return c.json(page.map((row) => ({ ...selectFields(threadToWire(row), request.select), ...(row.extracted ? { extracted: row.extracted } : {}) })));
  });

  // Count Threads
  routes.post("/count", async (c) => {
    const filter = threadFilterFromWire(await body(c, ThreadCountRequest));
    return c.json(await threadsService.count(ctx(c), filter));
  });

  // Get Thread
  routes.get("/:thread_id", async (c) => {
    return c.json(threadToWire(await threadsService.get(ctx(c), c.req.param("thread_id"))));
  });

  // Patch Thread (metadata is merged); `Prefer: return=minimal` answers 204 without the thread
  routes.patch("/:thread_id", async (c) => {
    const { metadata, ttl } = await body(c, ThreadPatch);
    const thread = await threadsService.update(ctx(c), c.req.param("thread_id"), { metadata, ttlMinutes: ttl?.ttl });
    return prefersMinimalReturn(c.req.header("Prefer")) ? c.body(null, 204) : c.json(threadToWire(thread));
  });

  // Delete Thread
  routes.delete("/:thread_id", async (c) => {
    await threadsService.delete(ctx(c), c.req.param("thread_id"));
    return c.body(null, 204);
  });

  // Copy Thread
  routes.post("/:thread_id/copy", async (c) => {
    return c.json(threadToWire(await threadsService.copy(ctx(c), c.req.param("thread_id"))));
  });

  return routes;
}
