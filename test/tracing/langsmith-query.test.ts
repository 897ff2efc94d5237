import { randomUUID } from "node:crypto";
import { Client } from "langsmith";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// POST /tracing/runs/query: LangSmith's filters plus Hangar's, keyset pages, stable order.
let server: TestServer;
const traceId = randomUUID();
const llmA = randomUUID();
const llmB = randomUUID();
const tool = randomUUID();
const other = randomUUID();
const threadId = randomUUID();

beforeAll(async () => {
  server = await startTestServer();
  const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15 };
  const response = await server.request("/tracing/runs/batch", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      post: [
        { id: traceId, name: "agent", run_type: "chain", start_time: "2025-07-01T00:00:00Z", tags: ["prod"] },
        {
          id: llmA,
          trace_id: traceId,
          parent_run_id: traceId,
          name: "model",
          run_type: "llm",
          start_time: "2025-07-01T00:00:01Z",
          extra: { metadata: { ls_model_name: "gpt-4o-mini", thread_id: threadId, customer: "acme" } },
          outputs: { role: "assistant", content: "a", usage_metadata: usage },
        },
        {
          id: llmB,
          trace_id: traceId,
          parent_run_id: traceId,
          name: "model",
          run_type: "llm",
          start_time: "2025-07-01T00:00:02Z",
          extra: { metadata: { ls_model_name: "claude-3-5-haiku-20241022", ls_provider: "anthropic", customer: "globex" } },
          outputs: { role: "assistant", content: "b", usage_metadata: usage },
        },
        { id: tool, trace_id: traceId, parent_run_id: llmA, name: "search", run_type: "tool", start_time: "2025-07-01T00:00:03Z", error: "timeout" },
        { id: other, name: "other", run_type: "chain", start_time: "2025-07-02T00:00:00Z" },
      ],
    }),
  });
  expect(response.status).toBe(202);
});

afterAll(async () => {
  await server?.close();
});

async function query(body: Record<string, unknown>) {
  const response = await server.request("/tracing/runs/query", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { runs: Array<Record<string, any>>; cursors: { next: string | null }; detail?: string };
  return { status: response.status, ...json, ids: json.runs?.map((run) => run.id) };
}

describe("POST /tracing/runs/query", () => {
  it("lists newest first and filters by trace, parent, root and run type", async () => {
    expect((await query({ trace: traceId })).ids).toEqual([tool, llmB, llmA, traceId]);
    expect((await query({ trace: traceId, order: "asc" })).ids).toEqual([traceId, llmA, llmB, tool]);
    expect((await query({ parent_run: traceId })).ids).toEqual([llmB, llmA]);
    expect((await query({ is_root: true })).ids).toEqual([other, traceId]);
    expect((await query({ run_type: "llm" })).ids).toEqual([llmB, llmA]);
    expect((await query({ id: [other, tool] })).ids).toEqual([other, tool]);
  });

  it("filters by error, time range, model, provider, thread, tags and metadata", async () => {
    expect((await query({ error: true })).ids).toEqual([tool]);
    expect((await query({ start_time: "2025-07-01T00:00:01Z", end_time: "2025-07-01T00:00:03Z" })).ids).toEqual([llmB, llmA]);
    expect((await query({ model_name: "gpt-4o-mini" })).ids).toEqual([llmA]);
    expect((await query({ provider: "anthropic" })).ids).toEqual([llmB]);
    expect((await query({ thread_id: threadId })).ids).toEqual([llmA]);
    expect((await query({ tags: ["prod"] })).ids).toEqual([traceId]);
    expect((await query({ filter: { customer: "globex" } })).ids).toEqual([llmB]);
  });

  it("understands the LangSmith filter language subset", async () => {
    expect((await query({ filter: 'and(eq(run_type, "llm"), eq(name, "model"), gt(start_time, "2025-07-01T00:00:01Z"))' })).ids).toEqual([llmB]);
    expect((await query({ filter: 'and(eq(metadata_key, "customer"), eq(metadata_value, "acme"))' })).ids).toEqual([llmA]);
    expect((await query({ filter: 'has(tags, "prod")' })).ids).toEqual([traceId]);
    const refused = await query({ filter: 'search("needle")' });
    expect(refused.status).toBe(422);
    expect(refused.detail).toContain("filter");
  });

  it("pages with cursors in a stable order", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof query>> = await query({ limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.runs.length).toBeLessThanOrEqual(2);
      seen.push(...page.ids);
      cursor = page.cursors.next;
    } while (cursor);
    expect(seen).toEqual([other, tool, llmB, llmA, traceId]);
  });

  it("returns only the selected fields, plus id and parent_run_id (as LangSmith does)", async () => {
    const { runs } = await query({ trace: traceId, select: ["name", "total_cost"], limit: 1 });
    expect(runs).toEqual([{ id: tool, parent_run_id: llmA, name: "search", total_cost: null }]);
  });

  it("refuses unsupported and malformed filters with 422", async () => {
    expect((await query({ trace_filter: 'eq(name, "x")' })).status).toBe(422);
    expect((await query({ start_time: "soon" })).status).toBe(422);
    expect((await query({ cursor: "garbage" })).status).toBe(422);
  });

  it("works with the SDK's listRuns", async () => {
    const client = new Client({ apiUrl: `${server.url}/tracing`, apiKey: "x", callerOptions: { maxRetries: 0 } });
    const runs = [];
    for await (const run of client.listRuns({ traceId, runType: "llm" })) runs.push(run);
    expect(runs.map((run) => run.id)).toEqual([llmB, llmA]);
    expect(runs[1]).toMatchObject({ total_tokens: 15, prompt_tokens: 10, completion_tokens: 5 });
  });
});
