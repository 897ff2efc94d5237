import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countRows } from "../helpers/sql.js";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";

// Custom auth refuses a run whose metadata has `refuse: true`: a batch whose third item is refused
// must queue none of the first two. No worker, so queued runs stay visible as rows.
const REFUSE_FLAGGED = path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "auth/refuse-flagged-runs.langgraph.json");
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ configPath: REFUSE_FLAGGED, roles: { api: true, worker: false, cron: false } });
});
afterAll(async () => {
  await server?.close();
});

const item = (metadata: Record<string, unknown> = {}) => ({ assistant_id: "echo", input: { messages: [] }, metadata });
const batch = (items: unknown[]) =>
  server.request("/runs/batch", {
    method: "POST",
    headers: { authorization: "Bearer alice", "content-type": "application/json" },
    body: JSON.stringify(items),
  });

describe("POST /runs/batch is all or nothing", () => {
  it("a refused third item queues none of the batch", async () => {
    const before = await countRows(server.database, ["runs", "threads"]);
    const response = await batch([item(), item(), item({ refuse: true })]);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("this run is refused");
    expect(await countRows(server.database, ["runs", "threads"])).toEqual(before);
  });

  it("an unknown assistant in the third item queues none of the batch", async () => {
    const before = await countRows(server.database, ["runs", "threads"]);
    const response = await batch([item(), item(), { ...item(), assistant_id: "no-such-graph" }]);
    expect(response.status).toBe(404);
    expect(await countRows(server.database, ["runs", "threads"])).toEqual(before);
  });

  it("a good batch queues every run, each on its own new thread", async () => {
    const before = await countRows(server.database, ["runs", "threads"]);
    const response = await batch([item({ n: 1 }), item({ n: 2 }), item({ n: 3 })]);
    expect(response.status).toBe(200);
    const runs = (await response.json()) as Array<{ run_id: string; thread_id: string; metadata: { n: number } }>;
    expect(runs.map((run) => run.metadata.n)).toEqual([1, 2, 3]);
    expect(new Set(runs.map((run) => run.thread_id)).size).toBe(3);
    expect(await countRows(server.database, ["runs", "threads"])).toEqual({ runs: before.runs! + 3, threads: before.threads! + 3 });
  });
});
