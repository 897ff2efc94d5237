import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createServiceContext } from "../../src/runtime.js";
import { retentionService } from "../../src/services/retention.service.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// HANGAR_TRACE_RETENTION_DAYS: the sweep deletes trace runs that started before the cutoff.
const API_KEY = "retention-key";
const DAY_MS = 24 * 3600 * 1000;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [API_KEY], env: { HANGAR_TRACE_RETENTION_DAYS: "30" } });
});

afterAll(async () => {
  await server?.close();
});

async function postTrace(startedDaysAgo: number): Promise<{ rootId: string; childId: string }> {
  const rootId = randomUUID();
  const childId = randomUUID();
  const start = new Date(Date.now() - startedDaysAgo * DAY_MS).toISOString();
  const response = await server.request("/tracing/runs/batch", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      post: [
        { id: rootId, name: "agent", run_type: "chain", start_time: start, end_time: start, inputs: {}, outputs: {} },
        { id: childId, trace_id: rootId, parent_run_id: rootId, name: "llm", run_type: "llm", start_time: start, inputs: { messages: [] } },
      ],
    }),
  });
  expect(response.status).toBe(202);
  return { rootId, childId };
}

async function exists(runId: string): Promise<boolean> {
  const response = await server.request(`/tracing/runs/${runId}`);
  expect([200, 404]).toContain(response.status);
  return response.status === 200;
}

describe("trace retention", () => {
  it("is off by default and read from HANGAR_TRACE_RETENTION_DAYS", () => {
    expect(loadConfig({}, {}).traceRetentionDays).toBeNull();
    expect(server.hangar.runtime.config.traceRetentionDays).toBe(30);
    expect(() => loadConfig({ HANGAR_TRACE_RETENTION_DAYS: "-1" }, {})).toThrow(/HANGAR_TRACE_RETENTION_DAYS/);
  });

  it("the sweep deletes the runs of traces older than the retention and keeps the rest", async () => {
    const old = await postTrace(45);
    const recent = await postTrace(2);
    // Feedback goes with its run (ON DELETE CASCADE); a recent run's stays.
    const feedbackOn = async (runId: string) => {
      const response = await server.request("/tracing/feedback", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ run_id: runId, key: "thumbs", score: 1 }),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { id: string }).id;
    };
    const oldFeedback = await feedbackOn(old.childId);
    const recentFeedback = await feedbackOn(recent.childId);
    const ctx = createServiceContext(server.hangar.runtime, { kind: "api-key" });
    const deleted = await retentionService.sweepOldTraces(ctx, 30);
    expect(deleted).toBe(2);
    expect(await exists(old.rootId)).toBe(false);
    expect(await exists(old.childId)).toBe(false);
    expect(await exists(recent.rootId)).toBe(true);
    expect(await exists(recent.childId)).toBe(true);
    expect((await server.request(`/tracing/feedback/${oldFeedback}`)).status).toBe(404);
    expect((await server.request(`/tracing/feedback/${recentFeedback}`)).status).toBe(200);
    // Nothing left to delete: a second sweep is a no-op.
    expect(await retentionService.sweepOldTraces(ctx, 30)).toBe(0);
    // A shorter retention reaches the recent trace too.
    expect(await retentionService.sweepOldTraces(ctx, 1)).toBe(2);
    expect(await exists(recent.rootId)).toBe(false);
  });
});
