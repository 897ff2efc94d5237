import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });

describe("config.recursion_limit", () => {
  it("is honoured as the SDK spells it: the run fails with GraphRecursionError", async () => {
    const thread = await server.client.threads.create();
    await expect(
      server.client.runs.wait(thread.thread_id, "slow", {
        input: human("deep"),
        config: { recursion_limit: 1 },
        context: { step_ms: 1 },
      }),
    ).rejects.toThrow(/GraphRecursionError/);
    expect((await server.client.threads.get(thread.thread_id)).status).toBe("error");
    // The same graph within its limit succeeds.
    const values = await server.client.runs.wait(thread.thread_id, "slow", {
      input: human("shallow"),
      config: { recursion_limit: 10 },
      context: { step_ms: 1 },
    });
    expect((values as { messages: unknown[] }).messages.length).toBeGreaterThan(1);
  });
});

describe("run metadata in checkpoints", () => {
  it("every checkpoint a run writes carries its metadata, so history filters by it", async () => {
    const thread = await server.client.threads.create();
    await server.client.runs.wait(thread.thread_id, "echo", { input: human("one") });
    await server.client.runs.wait(thread.thread_id, "echo", { input: human("two"), metadata: { run_tag: "second", step: 99 } });
    const full = await server.client.threads.getHistory(thread.thread_id);
    const filtered = await server.client.threads.getHistory(thread.thread_id, { metadata: { run_tag: "second" } });
    expect(full.length).toBe(6);
    expect(filtered.length).toBe(3);
    for (const state of filtered) {
      expect(state.metadata).toMatchObject({ run_tag: "second", graph_id: "echo" });
      // LangGraph's own step is kept over a metadata key of the same name.
      expect(state.metadata?.step).not.toBe(99);
    }
  });
});

describe("unknown assistant wording", () => {
  it("runs on an unknown assistant or graph answer 404 with LangGraph Platform's message", async () => {
    const thread = await server.client.threads.create();
    await expect(server.client.runs.wait(thread.thread_id, "non-existent", { input: {} })).rejects.toThrow(
      /HTTP 404: .*No assistant found for \\"non-existent\\"/,
    );
    const unknownId = "00000000-0000-4000-8000-000000000000";
    const response = await server.request(`/threads/${thread.thread_id}/runs/stream`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: unknownId, input: {} }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      detail: `No assistant found for "${unknownId}". Make sure the assistant ID is for a valid assistant or a valid graph ID.`,
    });
  });
});

describe("debug checkpoint events", () => {
  it("carry checkpoint and parent_checkpoint as history names them, and no execution internals", async () => {
    const thread = await server.client.threads.create();
    const response = await server.request(`/threads/${thread.thread_id}/runs/stream`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "echo", input: human("debug"), stream_mode: ["debug"] }),
    });
    const text = await response.text();
    expect(text).not.toMatch(/"callbacks"|"__pregel_[a-z_]+":|"signal"/);
    const payloads = [...text.matchAll(/^data: (.+)$/gm)]
      .map((match) => JSON.parse(match[1]!) as { type?: string; payload?: Record<string, unknown> })
      .filter((data) => data.type === "checkpoint")
      .map((data) => data.payload!);
    expect(payloads.length).toBe(3);
    const history = (await server.client.threads.getHistory(thread.thread_id, { limit: payloads.length })).reverse();
    const pick = (entry: { metadata?: unknown; checkpoint?: unknown; parent_checkpoint?: unknown }) => ({
      step: (entry.metadata as { step?: number } | null)?.step,
      checkpoint: entry.checkpoint,
      parent_checkpoint: entry.parent_checkpoint,
    });
    expect(payloads.map(pick)).toEqual(history.map(pick));
    expect(payloads[1]).toHaveProperty("parent_config.configurable.checkpoint_id", history[0]!.checkpoint.checkpoint_id);
    for (const payload of payloads) expect(payload).not.toHaveProperty("parentConfig");
  });
});

describe("thread state tasks", () => {
  it("carry LangGraph's task path", async () => {
    const thread = await server.client.threads.create();
    await server.client.runs.wait(thread.thread_id, "interrupting", { input: human("please") });
    const state = await server.client.threads.getState(thread.thread_id);
    expect(state.tasks).toEqual([expect.objectContaining({ name: "ask", path: ["__pregel_pull", "ask"] })]);
  });
});
