import type { HangarMetrics } from "../metrics/hangar-metrics.js";
import { requireOperator } from "./access-scope.js";
import type { ServiceContext } from "./service-context.js";

/**
 * The Prometheus exposition on the API's own port: operators only, as traces are (the series
 * name every graph and count every user's runs). On HANGAR_METRICS_PORT it is served without
 * credentials instead, for a scraper on a private network.
 */
export const metricsService = {
  async expose(ctx: ServiceContext, metrics: HangarMetrics): Promise<{ body: string; contentType: string }> {
    requireOperator(ctx, "Metrics");
    return metrics.expose();
  },
};
