import { print } from "graphql";
import { createClient, type Client } from "graphql-ws";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ThreadEventsDocument } from "../graphql/generated/graphql.js";
import { graphqlWebSocketUrl } from "../graphql/helpers.js";
import { makeCronsDue } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

/**
 * GET /metrics through a real server: runs of two graphs (one failing), a cron firing, an SSE
 * stream and a graphql-ws subscription, then the exposition parsed with a Prometheus text parser.
 */
const API_KEY = "metrics-key";
let server: TestServer;
let ownPort: TestServer;

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [API_KEY] });
  await server.hangar.scheduler!.ready;
});
afterAll(async () => {
  await server?.close();
  await ownPort?.close();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });
const waitUntil = (check: () => Promise<void> | void, timeout = 15_000) => vi.waitFor(check, { timeout, interval: 50 });

type Families = ReturnType<typeof parsePrometheusTextFormat>;

async function scrape(target: TestServer = server, base = target.url): Promise<Families> {
  const response = await fetch(`${base}/metrics`, { headers: { "x-api-key": API_KEY } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusTextFormat(await response.text());
}

/** A counter's or gauge's value for these labels (0 when the series does not exist yet). */
function value(families: Families, name: string, labels: Record<string, string> = {}): number {
  const family = families.find((candidate) => candidate.name === name);
  if (!family) throw new Error(`no metric ${name}`);
  const sample = family.metrics.find((metric) => Object.entries(labels).every(([key, wanted]) => metric.labels?.[key] === wanted));
  return Number(sample?.value ?? 0);
}

/**
 * A histogram's observation count for these labels. The text parser reads only unlabelled
 * histograms, so the exposition is checked for the family and the count read from the server's
 * own prom-client registry.
 */
async function observations(families: Families, name: string, labels: Record<string, string> = {}): Promise<number> {
  expect(families.find((candidate) => candidate.name === name)?.type).toBe("HISTOGRAM");
  const histogram = server.hangar.runtime.metrics!.registry.getSingleMetric(name)!;
  const values = (await histogram.get()).values as Array<{ metricName?: string; labels: Record<string, string | number>; value: number }>;
  const count = values.find(
    (sample) => sample.metricName === `${name}_count` && Object.entries(labels).every(([key, wanted]) => sample.labels[key] === wanted),
  );
  return Number(count?.value ?? 0);
}

async function histogramSum(name: string): Promise<number> {
  const values = (await server.hangar.runtime.metrics!.registry.getSingleMetric(name)!.get()).values as Array<{ metricName?: string; value: number }>;
  return Number(values.find((sample) => sample.metricName === `${name}_sum`)?.value ?? 0);
}

describe("GET /metrics", () => {
  it("needs the API key when HANGAR_API_KEYS is set", async () => {
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ detail: expect.any(String) });
  });

  it("counts runs by graph and status, their timings, a cron firing and the queue", async () => {
    for (const n of [1, 2, 3]) await server.client.runs.wait(null, "echo", { input: human(`run ${n}`) });
    const thread = await server.client.threads.create();
    const failing = await server.client.runs.create(thread.thread_id, "failing", { input: human("boom") });
    await server.client.runs.join(thread.thread_id, failing.run_id);
    expect((await server.client.runs.get(thread.thread_id, failing.run_id)).status).toBe("error");
    const cron = await server.client.crons.create("echo", { schedule: "0 0 1 1 *", input: human("from cron") });
    await makeCronsDue(server.database, [cron.cron_id], 2);

    await waitUntil(async () => {
      const families = await scrape();
      expect(value(families, "hangar_runs_finished_total", { graph: "echo", status: "success" })).toBe(4);
      expect(value(families, "hangar_runs_finished_total", { graph: "failing", status: "error" })).toBe(1);
    });
    const families = await scrape();
    expect(value(families, "hangar_runs_created_total", { graph: "echo" })).toBe(4);
    expect(value(families, "hangar_runs_created_total", { graph: "failing" })).toBe(1);
    expect(value(families, "hangar_runs_started_total", { graph: "echo" })).toBe(4);
    expect(value(families, "hangar_runs_started_total", { graph: "failing" })).toBe(1);
    expect(await observations(families, "hangar_run_duration_seconds", { graph: "echo", status: "success" })).toBe(4);
    expect(await observations(families, "hangar_run_duration_seconds", { graph: "failing", status: "error" })).toBe(1);
    expect(await observations(families, "hangar_run_time_to_start_seconds", { graph: "echo" })).toBe(4);
    expect(value(families, "hangar_cron_firings_total", { outcome: "fired" })).toBe(1);
    expect(await observations(families, "hangar_cron_lag_seconds")).toBe(1);
    // The slot was made due two seconds back: the firing was at least that late.
    expect(await histogramSum("hangar_cron_lag_seconds")).toBeGreaterThanOrEqual(1.9);
    expect(value(families, "hangar_run_queue_depth")).toBe(0);
    expect(value(families, "hangar_run_queue_oldest_wait_seconds")).toBe(0);
    // Hangar traces its own graph runs into the trace store: 5 runs, each several trace runs.
    expect(value(families, "hangar_trace_runs_ingested_total")).toBeGreaterThanOrEqual(5);
    for (const state of ["in_use", "idle", "waiting"]) expect(families.find((f) => f.name === "hangar_db_pool_connections")!.metrics.some((m) => m.labels?.state === state)).toBe(true);
    expect(value(families, "process_resident_memory_bytes")).toBeGreaterThan(10_000_000);
    expect(families.some((family) => family.name === "nodejs_eventloop_lag_seconds")).toBe(true);
  });

  it("reports pending runs and the oldest one's wait while no worker takes them", async () => {
    const waiting = await startTestServer({ apiKeys: [API_KEY], roles: { api: true, worker: false, cron: false } });
    try {
      const thread = await waiting.client.threads.create();
      await waiting.client.runs.create(thread.thread_id, "echo", { input: human("queued") });
      await waiting.client.runs.create(null, "echo", { input: human("queued too") });
      await waitUntil(async () => {
        const families = await scrape(waiting);
        expect(value(families, "hangar_run_queue_depth")).toBe(2);
        expect(value(families, "hangar_run_queue_oldest_wait_seconds")).toBeGreaterThan(0);
      });
    } finally {
      await waiting.close();
    }
  });

  it("counts open SSE streams and graphql-ws subscriptions while they are open", async () => {
    const thread = await server.client.threads.create();
    const stream = server.client.runs.stream(thread.thread_id, "slow", { input: human("slow"), context: { step_ms: 400 } });
    const first = await stream.next();
    expect(first.done).toBe(false);
    expect(value(await scrape(), "hangar_sse_streams_active")).toBe(1);
    for await (const _part of stream) {
      // drained to the end
    }
    await waitUntil(async () => expect(value(await scrape(), "hangar_sse_streams_active")).toBe(0));

    class WebSocketWithKey extends WebSocket {
      constructor(address: string | URL, protocols?: string | string[]) {
        super(address, protocols, { headers: { "x-api-key": API_KEY } });
      }
    }
    const client: Client = createClient({ url: graphqlWebSocketUrl(server), webSocketImpl: WebSocketWithKey, retryAttempts: 0 });
    try {
      // A thread with no run yet: its event stream stays open, waiting for one.
      const quiet = await server.client.threads.create();
      const events = client.iterate({ query: print(ThreadEventsDocument), variables: { threadId: quiet.thread_id, channels: ["values"] } });
      void events.next().catch(() => undefined);
      await waitUntil(async () => expect(value(await scrape(), "hangar_websocket_subscriptions_active")).toBe(1));
      await events.return?.();
      await waitUntil(async () => expect(value(await scrape(), "hangar_websocket_subscriptions_active")).toBe(0));
    } finally {
      await client.dispose();
    }
  });
});

describe("HANGAR_METRICS_PORT", () => {
  it("serves /metrics, /ok and /ready open on their own port, and not on the API's", async () => {
    ownPort = await startTestServer({ apiKeys: [API_KEY], env: { HANGAR_METRICS_PORT: "0" } });
    const metricsUrl = ownPort.hangar.metricsUrl!;
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(metricsUrl).not.toBe(ownPort.url);
    const open = await fetch(`${metricsUrl}/metrics`);
    expect(open.status).toBe(200);
    expect(parsePrometheusTextFormat(await open.text()).some((family) => family.name === "hangar_runs_created_total")).toBe(true);
    expect((await fetch(`${metricsUrl}/ok`)).status).toBe(200);
    // Ready once the run worker has completed its first claim loop (moments after start).
    await waitUntil(async () => expect((await fetch(`${metricsUrl}/ready`)).status).toBe(200));
    expect((await fetch(`${metricsUrl}/threads`)).status).toBe(404);
    expect((await ownPort.request("/metrics")).status).toBe(404);
  });
});
