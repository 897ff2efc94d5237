import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe("Hangar's own graph runs in the trace store", () => {
  it("records the graph run as the root, its nodes and model call as children, with tokens and cost", async () => {
    const thread = await server.client.threads.create();
    let runId = "";
    for await (const part of server.client.runs.stream(thread.thread_id, "agent", {
      input: { messages: [{ role: "user", content: "trace me please" }] },
      // Token streaming makes the model call stream, which is what gives it a first-token time.
      streamMode: ["values", "messages-tuple"],
    })) {
      if (part.event === "metadata") runId = (part.data as { run_id: string }).run_id;
    }
    const root = await (await server.request(`/tracing/runs/${runId}`)).json();
    expect(root).toMatchObject({ id: runId, trace_id: runId, parent_run_id: null });
    expect(root.extra.metadata).toMatchObject({ run_id: runId, thread_id: thread.thread_id, graph_id: "agent" });

    const query = await server.request("/tracing/runs/query", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ trace: runId, limit: 100 }),
    });
    const { runs } = await query.json();
    const llm = runs.find((run: { run_type: string }) => run.run_type === "llm");
    expect(llm).toBeDefined();
    expect(llm.extra.metadata).toMatchObject({ ls_provider: "hangar", ls_model_name: "offline-echo", thread_id: thread.thread_id });
    expect(llm.prompt_tokens).toBeGreaterThan(0);
    expect(llm.completion_tokens).toBeGreaterThan(0);
    expect(llm.tokens_estimated).toBe(false);
    expect(Number(llm.total_cost)).toBeGreaterThan(0);
    expect(llm.first_token_time).not.toBeNull();
    expect(llm.rendered.output_messages[0].role).toBe("assistant");
    expect(runs.some((run: { name: string }) => run.name === "agent")).toBe(true);
  });

  it("has every root run complete (its end, outputs or error) as soon as its run is reported finished, with runs in parallel", async () => {
    // Twelve runs at once, so the recorder's batches mix several runs' trace runs: each run's
    // root must be stored with its end by the time that run is reported finished (completeRun).
    const graphs = Array.from({ length: 12 }, (_, i) => (i % 3 === 2 ? "failing" : "echo"));
    await Promise.all(
      graphs.map(async (graphId) => {
        const thread = await server.client.threads.create();
        const run = await server.client.runs.create(thread.thread_id, graphId, { input: { messages: [{ role: "user", content: "hi" }] } });
        await server.client.runs.join(thread.thread_id, run.run_id);
        const { status } = await server.client.runs.get(thread.thread_id, run.run_id);
        expect(status).toBe(graphId === "echo" ? "success" : "error");
        // No wait and no retry: the trace is stored before the run's end is.
        const root = await (await server.request(`/tracing/runs/${run.run_id}`)).json();
        expect(root.end_time, graphId).not.toBeNull();
        if (graphId === "echo") expect(root.outputs.messages.length).toBeGreaterThan(0);
        else expect(root.error).toEqual(expect.any(String));
      }),
    );
  });

  it("shows a node still running as pending, and stores its end once it ends", async () => {
    // A node that outlasts the recorder's 50 ms round: its start is written on its own (live in
    // the console), and its end must still reach the store as a patch of that stored run.
    const thread = await server.client.threads.create();
    const run = await server.client.runs.create(thread.thread_id, "slow", { input: { messages: [] }, context: { step_ms: 400 } });
    const nodeRun = async (name: string) => {
      const response = await server.request("/tracing/runs/query", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ trace: run.run_id, limit: 100 }),
      });
      const { runs } = (await response.json()) as { runs: Array<{ name: string; status: string; end_time: string | null; outputs: unknown }> };
      return runs.find((traced) => traced.name === name);
    };
    await expect.poll(async () => (await nodeRun("first"))?.status, { timeout: 5_000, interval: 20 }).toBe("pending");
    await server.client.runs.join(thread.thread_id, run.run_id);
    for (const name of ["first", "second", "third"]) {
      const ended = await nodeRun(name);
      expect(ended, name).toMatchObject({ status: "success", outputs: { messages: [{ content: `${name} done` }] } });
      expect(ended?.end_time, name).not.toBeNull();
    }
  });
});
