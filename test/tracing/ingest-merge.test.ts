import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceContext } from "../../src/runtime.js";
import { tracesService } from "../../src/services/traces.service.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Times in either wire form, and posts and patches merged in whatever order they arrive.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

async function batch(body: { post?: unknown[]; patch?: unknown[] }) {
  const response = await server.request("/tracing/runs/batch", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(202);
}

async function readRun(id: string) {
  const response = await server.request(`/tracing/runs/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, any>;
}

describe("ingestion: times", () => {
  it("keeps microseconds of ISO times and treats times without offset as UTC", async () => {
    const id = randomUUID();
    await batch({
      post: [{ id, name: "a", run_type: "chain", start_time: "2025-04-01T08:00:00.123456", end_time: "2025-04-01T10:00:00.654321+02:00" }],
    });
    expect(await readRun(id)).toMatchObject({
      start_time: "2025-04-01T08:00:00.123456Z",
      end_time: "2025-04-01T08:00:00.654321Z",
    });
  });

  it("reads epoch milliseconds, fractions included", async () => {
    const id = randomUUID();
    await batch({ post: [{ id, name: "b", run_type: "chain", start_time: 1743494400123, end_time: 1743494400999.5 }] });
    expect(await readRun(id)).toMatchObject({
      start_time: "2025-04-01T08:00:00.123000Z",
      end_time: "2025-04-01T08:00:00.999500Z",
    });
  });

  it("takes start time, trace and parent from dotted_order when they are not sent", async () => {
    const root = randomUUID();
    const child = randomUUID();
    const dottedOrder = `20250401T080000000001Z${root}.20250401T080000250002Z${child}`;
    await batch({ post: [{ id: child, name: "c", run_type: "tool", dotted_order: dottedOrder }] });
    expect(await readRun(child)).toMatchObject({
      trace_id: root,
      parent_run_id: root,
      start_time: "2025-04-01T08:00:00.250002Z",
      dotted_order: dottedOrder,
      warnings: [],
    });
  });
});

describe("ingestion: merging posts and patches", () => {
  it("stores a patch that arrives before its post, then merges the post into it", async () => {
    const id = randomUUID();
    await batch({
      patch: [{ id, end_time: "2025-04-02T09:00:05Z", outputs: { answer: 42 }, extra: { metadata: { phase: "patch" } } }],
    });
    const partial = await readRun(id);
    expect(partial).toMatchObject({ id, outputs: { answer: 42 }, end_time: "2025-04-02T09:00:05.000000Z" });
    expect(partial.warnings.join(" ")).toContain("only a patch has arrived");

    // The late post carries stale values for patch-owned fields: the patch's win.
    await batch({
      post: [
        {
          id,
          name: "late-post",
          run_type: "chain",
          start_time: "2025-04-02T09:00:00Z",
          inputs: { question: "?" },
          outputs: { answer: "stale" },
          extra: { metadata: { phase: "post", user: "u1" } },
        },
      ],
    });
    const merged = await readRun(id);
    expect(merged).toMatchObject({
      name: "late-post",
      start_time: "2025-04-02T09:00:00.000000Z",
      end_time: "2025-04-02T09:00:05.000000Z",
      inputs: { question: "?" },
      outputs: { answer: 42 },
      extra: { metadata: { phase: "patch", user: "u1" } },
      trace_id: id,
      warnings: [],
    });
  });

  it("applies a patch after its post and accepts a retried post idempotently", async () => {
    const id = randomUUID();
    const post = { id, name: "p", run_type: "chain", start_time: "2025-04-03T00:00:00Z", inputs: { x: 1 } };
    await batch({ post: [post] });
    await batch({ patch: [{ id, end_time: "2025-04-03T00:00:01Z", outputs: { y: 2 }, error: "boom" }] });
    await batch({ post: [post] });
    expect(await readRun(id)).toMatchObject({ inputs: { x: 1 }, outputs: { y: 2 }, error: "boom", status: "error" });
  });

  it("merges a post and its patch sent in the same batch", async () => {
    const id = randomUUID();
    await batch({
      post: [{ id, name: "same-batch", run_type: "chain", start_time: "2025-04-04T00:00:00Z", inputs: { x: 1 } }],
      patch: [{ id, end_time: "2025-04-04T00:00:03Z", outputs: { y: 1 } }],
    });
    expect(await readRun(id)).toMatchObject({ inputs: { x: 1 }, outputs: { y: 1 }, end_time: "2025-04-04T00:00:03.000000Z" });
  });

  it("merges concurrent batches that post and patch the same runs", async () => {
    const ids = Array.from({ length: 40 }, () => randomUUID());
    await Promise.all([
      batch({ post: ids.map((id) => ({ id, name: "race", run_type: "chain", start_time: "2025-04-05T00:00:00Z", inputs: { id } })) }),
      batch({ patch: ids.map((id) => ({ id, end_time: "2025-04-05T00:00:01Z", outputs: { done: id } })) }),
    ]);
    for (const id of ids) {
      expect(await readRun(id)).toMatchObject({ inputs: { id }, outputs: { done: id }, name: "race" });
    }
  });

  it("accepts PATCH /runs/{id} and POST /runs with nested child_runs", async () => {
    const root = randomUUID();
    const child = randomUUID();
    const response = await server.request("/tracing/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id: root,
        name: "tree",
        run_type: "chain",
        start_time: "2025-04-06T00:00:00Z",
        child_runs: [{ id: child, name: "leaf", run_type: "tool", start_time: "2025-04-06T00:00:01Z" }],
      }),
    });
    expect(response.status).toBe(202);
    const patched = await server.request(`/tracing/runs/${root}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ end_time: "2025-04-06T00:00:02Z", outputs: { ok: true } }),
    });
    expect(patched.status).toBe(202);
    expect(await readRun(root)).toMatchObject({ child_run_ids: [child], outputs: { ok: true } });
    expect(await readRun(child)).toMatchObject({ parent_run_id: root, trace_id: root });
  });
});

describe("ingestion: batches the caller declares new (Hangar's own graph tracer)", () => {
  it("writes new runs directly, and still merges a declared-new run that turns out to exist", async () => {
    const ctx = createServiceContext(server.hangar.runtime, { kind: "api-key" });
    const existing = randomUUID();
    const fresh = randomUUID();
    await batch({ post: [{ id: existing, name: "stored", run_type: "chain", start_time: 1743494400000, inputs: { a: 1 } }] });
    await tracesService.ingest(ctx, {
      posts: [{ id: fresh, name: "fresh", runType: "chain", startTime: 1743494400000 }],
      patches: [{ id: existing, endTime: 1743494401000, outputs: { b: 2 } }],
      allNew: true,
    });
    expect(await readRun(fresh)).toMatchObject({ name: "fresh" });
    expect(await readRun(existing)).toMatchObject({ name: "stored", inputs: { a: 1 }, outputs: { b: 2 } });
  });
});
