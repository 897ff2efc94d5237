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
