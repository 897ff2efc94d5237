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
const contents = (values: unknown) => ((values as { messages: Array<{ content: string }> }).messages ?? []).map((m) => m.content);

/** Starts a slow run and resolves once its first node has finished (its first update arrived). */
async function startSlowRunPastFirstStep(threadId: string, text: string, stepMs = 250) {
  const stream = server.client.runs.stream(threadId, "slow", {
    input: human(text),
    streamMode: "updates",
    context: { step_ms: stepMs },
  });
  let runId = "";
  for await (const part of stream) {
    if (part.event === "metadata") runId = (part.data as { run_id: string }).run_id;
    if (part.event === "updates") break;
  }
  return runId;
}

describe("multitask strategies on a thread with an active run", () => {
  it("interrupt: the first run ends interrupted and is kept; the thread holds its partial messages, then the second run's", async () => {
    const thread = await server.client.threads.create();
    const firstRunId = await startSlowRunPastFirstStep(thread.thread_id, "first");
    const second = await server.client.runs.create(thread.thread_id, "slow", {
      input: human("second"),
      multitaskStrategy: "interrupt",
      context: { step_ms: 5 },
    });
    const values = await server.client.runs.join(thread.thread_id, second.run_id);

    const first = await server.client.runs.get(thread.thread_id, firstRunId);
    expect(first.status).toBe("interrupted");
    expect((await server.client.runs.get(thread.thread_id, second.run_id)).status).toBe("success");
    expect(contents(values)).toEqual(["first", "first done", "second", "first done", "second done", "third done"]);
    const state = await server.client.threads.getState(thread.thread_id);
    expect(contents(state.values)).toEqual(contents(values));
  });

  it("reject (the default): a second run gets 409 and nothing changes", async () => {
    const thread = await server.client.threads.create();
    const firstRunId = await startSlowRunPastFirstStep(thread.thread_id, "first", 100);
    const response = await server.request(`/threads/${thread.thread_id}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "slow", input: human("second") }),
    });
    expect(response.status).toBe(409);
    expect((await response.json()).detail).toMatch(/busy/);
    await server.client.runs.join(thread.thread_id, firstRunId);
    const runs = await server.client.runs.list(thread.thread_id);
    expect(runs.map((run) => run.run_id)).toEqual([firstRunId]);
  });

  it("rollback: the first run and everything it wrote are gone", async () => {
    const thread = await server.client.threads.create();
    const firstRunId = await startSlowRunPastFirstStep(thread.thread_id, "first");
    const second = await server.client.runs.create(thread.thread_id, "slow", {
      input: human("second"),
      multitaskStrategy: "rollback",
      context: { step_ms: 5 },
    });
    const values = await server.client.runs.join(thread.thread_id, second.run_id);
    expect(contents(values)).toEqual(["second", "first done", "second done", "third done"]);
    await expect(server.client.runs.get(thread.thread_id, firstRunId)).rejects.toThrow(/404/);
    const history = await server.client.threads.getHistory(thread.thread_id, { limit: 100 });
    expect(history.every((state) => (state.metadata as { run_id?: string })?.run_id !== firstRunId)).toBe(true);
  });

  it("enqueue: both runs succeed, in order", async () => {
    const thread = await server.client.threads.create();
    const first = await server.client.runs.create(thread.thread_id, "slow", { input: human("one"), context: { step_ms: 20 } });
    const second = await server.client.runs.create(thread.thread_id, "slow", {
      input: human("two"),
      multitaskStrategy: "enqueue",
      context: { step_ms: 5 },
    });
    expect(second.status).toBe("pending");
    const values = await server.client.runs.join(thread.thread_id, second.run_id);
    expect((await server.client.runs.get(thread.thread_id, first.run_id)).status).toBe("success");
    expect(contents(values)).toEqual(["one", "first done", "second done", "third done", "two", "first done", "second done", "third done"]);
    expect((await server.client.threads.get(thread.thread_id)).status).toBe("idle");
  });
});

describe("multitask strategies on a thread whose run is still pending", () => {
  // A run due in an hour keeps its thread busy without ever starting: each strategy's decision
  // about a pending run shows at once, with no worker involved.
  async function threadWithPendingRun() {
    const thread = await server.client.threads.create();
    const pending = await server.client.runs.create(thread.thread_id, "echo", { input: human("later"), afterSeconds: 3600 });
    return { threadId: thread.thread_id, pendingRunId: pending.run_id };
  }

  it("reject: 409 naming the busy thread; the pending run stays and no run is added", async () => {
    const { threadId, pendingRunId } = await threadWithPendingRun();
    const response = await server.request(`/threads/${threadId}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "echo", input: human("now"), multitask_strategy: "reject" }),
    });
    expect(response.status).toBe(409);
    expect((await response.json()).detail).toMatch(new RegExp(`${threadId}.*busy`));
    const runs = await server.client.runs.list(threadId);
    expect(runs.map((run) => [run.run_id, run.status])).toEqual([[pendingRunId, "pending"]]);
  });

  it("enqueue: the new run is queued beside the pending one, which is kept (a due run does not wait for a delayed one)", async () => {
    const { threadId, pendingRunId } = await threadWithPendingRun();
    const queued = await server.client.runs.create(threadId, "echo", { input: human("next"), multitaskStrategy: "enqueue" });
    expect(queued.status).toBe("pending");
    await server.client.runs.join(threadId, queued.run_id);
    const runs = await server.client.runs.list(threadId);
    expect(new Map(runs.map((run) => [run.run_id, run.status]))).toEqual(new Map([[pendingRunId, "pending"], [queued.run_id, "success"]]));
  });

  it("interrupt: the pending run ends interrupted (kept) and the new run runs", async () => {
    const { threadId, pendingRunId } = await threadWithPendingRun();
    const next = await server.client.runs.create(threadId, "echo", { input: human("now"), multitaskStrategy: "interrupt" });
    expect((await server.client.runs.get(threadId, pendingRunId)).status).toBe("interrupted");
    await server.client.runs.join(threadId, next.run_id);
    expect((await server.client.runs.get(threadId, next.run_id)).status).toBe("success");
  });

  it("rollback: the pending run is deleted and the new run runs", async () => {
    const { threadId, pendingRunId } = await threadWithPendingRun();
    const next = await server.client.runs.create(threadId, "echo", { input: human("now"), multitaskStrategy: "rollback" });
    await expect(server.client.runs.get(threadId, pendingRunId)).rejects.toThrow(/404/);
    await server.client.runs.join(threadId, next.run_id);
    const runs = await server.client.runs.list(threadId);
    expect(runs.map((run) => [run.run_id, run.status])).toEqual([[next.run_id, "success"]]);
  });
});
