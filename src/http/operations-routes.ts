import type { Context, Hono } from "hono";
import { createServiceContext, type HangarRuntime } from "../runtime.js";
import { metricsService } from "../services/metrics.service.js";
import { readinessService } from "../services/readiness.service.js";
import type { HttpEnv } from "./http-env.js";

/**
 * Liveness: GET /ok answers without touching any dependency (a process that answers is alive);
 * `/ok?check_db=1` (LangGraph's form) also asks PostgreSQL. 503 with the failing check when not.
 */
export function mountLiveness(app: Hono<HttpEnv>, runtime: HangarRuntime): void {
  app.get("/ok", async (c) => {
    const checkDb = c.req.query("check_db");
    if (checkDb === undefined || checkDb === "0" || checkDb === "false") return c.json({ ok: true });
    return readinessAnswer(c, runtime, { databaseOnly: true });
  });
}

/** Readiness: GET /ready reports PostgreSQL, Redis (when configured) and the run worker (when this process has one). */
export function mountReadiness(app: Hono<HttpEnv>, runtime: HangarRuntime): void {
  app.get("/ready", (c) => readinessAnswer(c, runtime, {}));
}

/**
 * GET /metrics: Prometheus' text exposition format. On the API's port (`access: "authenticated"`)
 * for operators; on HANGAR_METRICS_PORT's own server (`"open"`) for whoever reaches that port.
 */
export function mountMetrics(app: Hono<HttpEnv>, runtime: HangarRuntime, access: "authenticated" | "open"): void {
  const { metrics } = runtime;
  if (!metrics) return;
  app.get("/metrics", async (c) => {
    const { body, contentType } =
      access === "open" ? await metrics.expose() : await metricsService.expose(createServiceContext(runtime, c.get("actor"), c.get("log")), metrics);
    return c.body(body, 200, { "content-type": contentType });
  });
}

async function readinessAnswer(c: Context<HttpEnv>, runtime: HangarRuntime, only: { databaseOnly?: boolean }): Promise<Response> {
  const readiness = await readinessService.check(runtime.db, runtime.readiness ?? {}, only);
  return c.json(readiness, readiness.ok ? 200 : 503, { "cache-control": "no-store" });
}
