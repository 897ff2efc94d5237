import path from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

/**
 * langgraph.json `http`: disable_ui (no generative-UI bundles or routes), disable_webhooks (a
 * finished run queues no webhook call) and logging_headers (which request headers the access
 * log line names), with the access log line itself.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const lines: Array<Record<string, unknown>> = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString("utf8").split("\n")) if (line.trim() !== "") lines.push(JSON.parse(line));
    done();
  },
});
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    apiKeys: ["keys-key"],
    configPath: path.join(here, "../fixtures/ui/http-keys.langgraph.json"),
    logger: pino({ level: "info" }, capture),
    env: { HANGAR_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1/32" },
  });
});
afterAll(async () => {
  await server?.close();
});

describe("langgraph.json http keys", () => {
  it("disable_ui: the ui section is neither bundled nor served", async () => {
    expect(lines.some((line) => line.msg === "generative UI bundled")).toBe(false);
    expect((await server.request("/ui/echo/entrypoint.js")).status).toBe(404);
    const components = await server.request("/ui/echo", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "weather-card" }) });
    expect(components.status).toBe(404);
    // Not named among the keys Hangar ignores.
    const ignored = lines.find((line) => line.msg === "langgraph.json keys Hangar ignores");
    expect(JSON.stringify(ignored?.keys ?? [])).not.toMatch(/disable_ui|disable_webhooks|logging_headers/);
  });

  it("disable_webhooks: a finished run with a webhook queues no call", async () => {
    const run = await server.client.runs.create(null, "echo", { input: { messages: [{ role: "user", content: "hi" }] }, webhook: "http://127.0.0.1:9/hook" });
    await server.client.runs.join(run.thread_id, run.run_id).catch(() => undefined);
    const [{ status }] = await sql<{ status: string }>(server.database, "SELECT status FROM runs WHERE run_id = $1 UNION ALL SELECT 'gone' LIMIT 1", [run.run_id]);
    expect(["success", "gone"]).toContain(status);
    expect(await sql(server.database, "SELECT * FROM webhook_deliveries")).toEqual([]);
  });

  it("logs one access line per request: status, time to first byte, trace id and the chosen headers, never credentials", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const response = await server.request("/threads/search", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
        "x-team": "ops",
        "x-team-secret": "hidden",
        "user-agent": "http-keys-test",
      },
      body: "{}",
    });
    expect(response.status).toBe(200);
    const line = lines.find((candidate) => candidate.msg === "request" && candidate.trace_id === traceId);
    expect(line).toMatchObject({ method: "POST", path: "/threads/search", status: 200, ttfb_ms: expect.any(Number), headers: { "x-team": "ops", "user-agent": "http-keys-test" } });
    // x-api-key is listed in includes, yet never logged; x-team-secret is excluded.
    expect(Object.keys(line!.headers as object).sort()).toEqual(["user-agent", "x-team"]);

    const refused = await fetch(`${server.url}/threads/search`, { method: "POST", headers: { "x-request-id": "req-401" }, body: "{}" });
    expect(refused.status).toBe(401);
    expect(lines.find((candidate) => candidate.msg === "request" && candidate.trace_id === "req-401")).toMatchObject({ status: 401, path: "/threads/search" });
  });
});
