import { Hono } from "hono";
import type { HttpEnv } from "../../http/http-env.js";
import type { HangarRuntime } from "../../runtime.js";
import { threadStateService } from "../../services/thread-state.service.js";
import {
  ThreadHistoryQuery,
  ThreadStateCheckpointRequest,
  ThreadStatePatch,
  ThreadStateQuery,
  ThreadStateSearch,
  ThreadStateUpdate,
} from "../schemas/thread-state.js";
import {
  checkpointSelectorFromWire,
  checkpointToWire,
  selectStateFields,
  threadHistoryFromWire,
  threadStateToWire,
  updateThreadStateFromWire,
} from "../thread-state-wire.js";
import { createRouteKit } from "./route-kit.js";

/** /threads/{id}/state and /threads/{id}/history: reading and editing a thread's checkpoints. */
export function threadStateRoutes(runtime: HangarRuntime): Hono<HttpEnv> {
  const { serviceContext: ctx, body, query } = createRouteKit(runtime);
  const routes = new Hono<HttpEnv>();

  // Get Latest Thread State
  routes.get("/:thread_id/state", async (c) => {
    const { subgraphs, select } = query(c, ThreadStateQuery);
    const state = await threadStateService.getState(ctx(c), c.req.param("thread_id"), { subgraphs });
    return c.json(selectStateFields(threadStateToWire(state), select));
  });

  // Get Thread State At Checkpoint Post (registered before /state/:checkpoint_id would match it)
  routes.post("/:thread_id/state/checkpoint", async (c) => {
    const { checkpoint, subgraphs, select } = await body(c, ThreadStateCheckpointRequest);
    const selector = checkpointSelectorFromWire(checkpoint);
    const state = await threadStateService.getStateAt(ctx(c), c.req.param("thread_id"), selector, { subgraphs });
    return c.json(selectStateFields(threadStateToWire(state), select));
  });

  // Get Thread State At Checkpoint
  routes.get("/:thread_id/state/:checkpoint_id", async (c) => {
    const { subgraphs, select } = query(c, ThreadStateQuery);
    const selector = { checkpointId: c.req.param("checkpoint_id") };
    const state = await threadStateService.getStateAt(ctx(c), c.req.param("thread_id"), selector, { subgraphs });
    return c.json(selectStateFields(threadStateToWire(state), select));
  });

  // Update Thread State
  routes.post("/:thread_id/state", async (c) => {
    const input = updateThreadStateFromWire(await body(c, ThreadStateUpdate));
    const { checkpoint } = await threadStateService.updateState(ctx(c), c.req.param("thread_id"), input);
    return c.json({ checkpoint: checkpointToWire(checkpoint) });
  });

  // Patch Thread State (merges metadata into the latest checkpoint's)
  routes.patch("/:thread_id/state", async (c) => {
    const { metadata } = await body(c, ThreadStatePatch);
    await threadStateService.patchStateMetadata(ctx(c), c.req.param("thread_id"), { metadata });
    return c.body(null, 204);
  });

  // Get Thread History Post
  routes.post("/:thread_id/history", async (c) => {
    const request = await body(c, ThreadStateSearch);
    const states = await threadStateService.getHistory(ctx(c), c.req.param("thread_id"), threadHistoryFromWire(request));
    return c.json(states.map((state) => selectStateFields(threadStateToWire(state), request.select)));
  });

  // Get Thread History (Studio's form of the POST: limit, before and select in the query)
  routes.get("/:thread_id/history", async (c) => {
    const request = { ...query(c, ThreadHistoryQuery), metadata: undefined, checkpoint: undefined };
    const states = await threadStateService.getHistory(ctx(c), c.req.param("thread_id"), threadHistoryFromWire(request));
    return c.json(states.map((state) => selectStateFields(threadStateToWire(state), request.select)));
  });

  return routes;
}
