import http from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import type { HangarRuntime } from "../runtime.js";
import type { HttpEnv } from "./http-env.js";
import { mountLiveness, mountMetrics, mountReadiness } from "./operations-routes.js";

/**
 * HANGAR_METRICS_PORT: /metrics, /ok and /ready on a port of their own (as LangGraph's server
 * serves metrics on 9464), with no authentication: that port is meant to be reachable only by
 * the scraper and the orchestrator's probes. It also gives `hangar worker` (no API) its probes.
 */
export async function startMetricsServer(runtime: HangarRuntime, port: number): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Hono<HttpEnv>();
  mountLiveness(app, runtime);
  mountReadiness(app, runtime);
  mountMetrics(app, runtime, "open");
  app.notFound((c) => c.json({ error: "NotFound", message: "this port serves only /metrics, /ok and /ready" }, 404));
  const server = http.createServer(getRequestListener(app.fetch));
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? new Error(`HANGAR_METRICS_PORT ${port} is already in use on ${runtime.config.host}: choose another port`) : error),
    );
    server.listen(port, runtime.config.host, () => resolve());
  });
  const { host } = runtime.config;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
