import type { Hono } from "hono";
import { NotFoundError } from "../domain/errors.js";
import type { HttpEnv } from "../http/http-env.js";
import type { HangarRuntime } from "../runtime.js";
import { respondWithError } from "./errors.js";
import { assistantRoutes } from "./routes/assistants.js";
import { cronRoutes, threadCronRoutes } from "./routes/crons.js";
import { threadPruneRoutes } from "./routes/thread-prune.js";
import { threadStateRoutes } from "./routes/thread-state.js";
import { statelessRunRoutes } from "./routes/stateless-runs.js";
import { storeRoutes } from "./routes/store.js";
import { threadRunRoutes } from "./routes/thread-runs.js";
import { threadRoutes } from "./routes/threads.js";
import { tracingRoutes } from "./routes/tracing.js";

/**
 * The LangGraph Platform compatible REST API. Every error of every route (and of the root app)
 * leaves through respondWithError, so all of them are `{"detail": "..."}` JSON.
 */
export function mountRestApi(app: Hono<HttpEnv>, runtime: HangarRuntime): void {
  app.route("/assistants", assistantRoutes(runtime));
  app.route("/threads", threadStateRoutes(runtime));
  app.route("/threads", threadRunRoutes(runtime));
  app.route("/threads", threadCronRoutes(runtime));
  app.route("/threads", threadPruneRoutes(runtime));
  app.route("/threads", threadRoutes(runtime));
  app.route("/runs/crons", cronRoutes(runtime));
  app.route("/runs", statelessRunRoutes(runtime));
  app.route("/tracing", tracingRoutes(runtime));
  app.route("/store", storeRoutes(runtime));

  app.onError((error, c) => respondWithError(c, error, c.get("log") ?? runtime.log));
  app.notFound((c) =>
    respondWithError(c, new NotFoundError(`No route for ${c.req.method} ${c.req.path}`), c.get("log") ?? runtime.log),
  );
}
