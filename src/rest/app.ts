import type { Hono } from "hono";
import { NotFoundError } from "../domain/errors.js";
import type { HttpEnv } from "../http/http-env.js";
import type { HangarRuntime } from "../runtime.js";
import { respondWithError } from "./errors.js";
import { assertStorableUrl } from "./read-body.js";
import { assistantRoutes } from "./routes/assistants.js";
import { cronRoutes, threadCronRoutes } from "./routes/crons.js";
import { internalRoutes } from "./routes/internal.js";
import { threadPruneRoutes } from "./routes/thread-prune.js";
import { threadStateRoutes } from "./routes/thread-state.js";
import { statelessRunRoutes } from "./routes/stateless-runs.js";
import { storeRoutes } from "./routes/store.js";
import { threadRunRoutes } from "./routes/thread-runs.js";
import { threadProtocolRoutes } from "./routes/thread-protocol.js";
import { threadRoutes } from "./routes/threads.js";
import { otelRoutes } from "./routes/otel.js";
import { tracingRoutes } from "./routes/tracing.js";

/**
 * The LangGraph Platform compatible REST API. Every error of every route (and of the root app)
 * leaves through respondWithError, so all of them are `{"detail": "..."}` JSON.
 */
export function mountRestApi(app: Hono<HttpEnv>, runtime: HangarRuntime): void {
  for (const prefix of ["/assistants", "/threads", "/runs", "/tracing", "/otel", "/store", "/internal"]) {
    app.use(`${prefix}/*`, async (c, next) => {
      assertStorableUrl(c);
      await next();
    });
  }
  // langgraph.json http.disable_*: those route groups do not exist at all (404), as on LangGraph.
  const disabled = (key: string) => runtime.deployment.http?.[key] === true;
  const threads = !disabled("disable_threads");
  const runs = !disabled("disable_runs");
  if (!disabled("disable_assistants")) app.route("/assistants", assistantRoutes(runtime));
  if (threads) app.route("/threads", threadStateRoutes(runtime));
  if (runs) app.route("/threads", threadRunRoutes(runtime));
  if (runs) app.route("/threads", threadProtocolRoutes(runtime));
  if (runs) app.route("/threads", threadCronRoutes(runtime));
  if (threads) app.route("/threads", threadPruneRoutes(runtime));
  if (threads) app.route("/threads", threadRoutes(runtime));
  if (runs) app.route("/runs/crons", cronRoutes(runtime));
  if (runs) app.route("/runs", statelessRunRoutes(runtime));
  app.route("/tracing", tracingRoutes(runtime));
  // OTLP/HTTP trace ingestion; also under /tracing/otel (tracingRoutes), as LangSmith has it.
  app.route("/otel", otelRoutes(runtime));
  if (!disabled("disable_store")) app.route("/store", storeRoutes(runtime));
  if (runtime.config.enableTruncate) app.route("/internal", internalRoutes(runtime));

  app.onError((error, c) => respondWithError(c, error, c.get("log") ?? runtime.log));
  app.notFound((c) =>
    respondWithError(c, new NotFoundError(`No route for ${c.req.method} ${c.req.path}`), c.get("log") ?? runtime.log),
  );
}
