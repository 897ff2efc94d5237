import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { untilRunValues } from "../helpers/run-progress.js";
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

describe("run control through the SDK", () => {
  it("cancels a running run (interrupt, wait): finished steps stay in the thread", async () => {
    const thread = await server.client.threads.create();
    // Steps of 1.5 s: the cancel must land while the second step runs, even on a loaded machine
    // (with 200 ms the run sometimes finished first). The wait honours the abort, so it costs nothing more.
    const run = await server.client.runs.create(thread.thread_id, "slow", { input: human("go"), context: { step_ms: 1500 } });
    // Cancelled while its second step runs: right after the first step's values were streamed.
    await untilRunValues(server.client, thread.thread_id, run.run_id, (values) => contents(values).includes("first done"));
    await server.client.runs.cancel(thread.thread_id, run.run_id, true);
    expect((await server.client.runs.get(thread.thread_id, run.run_id)).status).toBe("interrupted");
    const state = await server.client.threads.getState(thread.thread_id);
    expect(contents(state.values)).toEqual(["go", "first done"]);
    expect((await server.client.threads.get(thread.thread_id)).status).not.toBe("busy");
  });

  it("cancels with rollback: the run and its writes are deleted", async () => {
    const thread = await server.client.threads.create();
    const run = await server.client.runs.create(thread.thread_id, "slow", { input: human("go"), context: { step_ms: 1500 } });
    await untilRunValues(server.client, thread.thread_id, run.run_id, (values) => contents(values).includes("first done"));
    await server.client.runs.cancel(thread.thread_id, run.run_id, true, "rollback");
    await expect(server.client.runs.get(thread.thread_id, run.run_id)).rejects.toThrow(/404/);
    const state = await server.client.threads.getState(thread.thread_id);
    expect(contents(state.values)).toEqual([]);
  });

  it("human in the loop: interrupt() leaves the thread interrupted; command.resume continues it", async () => {
    const thread = await server.client.threads.create();
    await server.client.runs.wait(thread.thread_id, "interrupting", { input: human("deploy?") });
    const interrupted = await server.client.threads.get(thread.thread_id);
    expect(interrupted.status).toBe("interrupted");
    expect(JSON.stringify(interrupted.interrupts)).toContain("approve?");
    const state = await server.client.threads.getState(thread.thread_id);
    expect(state.next).toEqual(["ask"]);

    const values = await server.client.runs.wait(thread.thread_id, "interrupting", { command: { resume: "yes" } });
    expect(contents(values)).toEqual(["deploy?", "approved: yes"]);
    expect((await server.client.threads.get(thread.thread_id)).status).toBe("idle");
  });

  it("interrupt_before pauses before the named node", async () => {
    const thread = await server.client.threads.create();
    await server.client.runs.wait(thread.thread_id, "slow", {
      input: human("x"),
      interruptBefore: ["second"],
      context: { step_ms: 1 },
    });
    const state = await server.client.threads.getState(thread.thread_id);
    expect(state.next).toEqual(["second"]);
    expect((await server.client.threads.get(thread.thread_id)).status).toBe("interrupted");
  });

  it("passes the assistant's context overlaid by the run's context as runtime context", async () => {
    const assistant = await server.client.assistants.create({ graphId: "slow", context: { step_ms: 5000 } });
    const thread = await server.client.threads.create();
    const started = Date.now();
    await server.client.runs.wait(thread.thread_id, assistant.assistant_id, { input: human("fast"), context: { step_ms: 1 } });
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it("lists runs newest first, gets, deletes; unknown ids are 404", async () => {
    const thread = await server.client.threads.create();
    const first = await server.client.runs.create(thread.thread_id, "echo", { input: human("a") });
    await server.client.runs.join(thread.thread_id, first.run_id);
    const second = await server.client.runs.create(thread.thread_id, "echo", { input: human("b") });
    await server.client.runs.join(thread.thread_id, second.run_id);
    const runs = await server.client.runs.list(thread.thread_id);
    expect(runs.map((run) => run.run_id)).toEqual([second.run_id, first.run_id]);
    expect(await server.client.runs.list(thread.thread_id, { limit: 1, offset: 1 })).toHaveLength(1);
    await server.client.runs.delete(thread.thread_id, first.run_id);
    expect((await server.client.runs.list(thread.thread_id)).map((run) => run.run_id)).toEqual([second.run_id]);
    await expect(server.client.runs.get(thread.thread_id, first.run_id)).rejects.toThrow(/404/);
    await expect(server.client.runs.list("00000000-0000-0000-0000-000000000000")).rejects.toThrow(/404/);
  });

  it("creates the thread with if_not_exists=create, and 404s without it", async () => {
    const threadId = "6f1d7c5e-3a55-4b34-9a53-3b3c8e1f0a01";
    await expect(server.client.runs.create(threadId, "echo", { input: human("a") })).rejects.toThrow(/404/);
    const run = await server.client.runs.create(threadId, "echo", { input: human("a"), ifNotExists: "create" });
    await server.client.runs.join(threadId, run.run_id);
    expect((await server.client.threads.get(threadId)).values).toMatchObject({ messages: [{}, { content: "echo: a" }] });
  });

  it("delays a run with after_seconds", async () => {
    const thread = await server.client.threads.create();
    const created = Date.now();
    const run = await server.client.runs.create(thread.thread_id, "echo", { input: human("later"), afterSeconds: 1 });
    expect((await server.client.runs.get(thread.thread_id, run.run_id)).status).toBe("pending");
    await server.client.runs.join(thread.thread_id, run.run_id);
    expect(Date.now() - created).toBeGreaterThanOrEqual(950);
  });

  it("creates a batch of stateless runs; bulk cancel stops pending ones", async () => {
    const runs = await server.client.runs.createBatch([
      { assistantId: "echo", input: human("one") },
      { assistantId: "echo", input: human("two") },
    ]);
    expect(runs).toHaveLength(2);
    const thread = await server.client.threads.create();
    const delayed = await server.client.runs.create(thread.thread_id, "echo", { input: human("x"), afterSeconds: 60 });
    const response = await server.request("/runs/cancel", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ run_ids: [delayed.run_id] }),
    });
    expect(response.status).toBe(204);
    expect((await server.client.runs.get(thread.thread_id, delayed.run_id)).status).toBe("interrupted");
    // Nothing is queued on the thread any more: it is not left busy.
    expect((await server.client.threads.get(thread.thread_id)).status).toBe("idle");
  });

  it("rejects bad run requests with 422 and creates nothing", async () => {
    const thread = await server.client.threads.create();
    for (const body of [
      {},
      { assistant_id: "echo", stream_mode: ["nope"] },
      { assistant_id: "echo", multitask_strategy: "sometimes" },
      { assistant_id: "echo", input: {}, command: {} },
      { assistant_id: "echo", webhook: "not a url" },
      { assistant_id: "echo", after_seconds: -1 },
    ]) {
      const response = await server.request(`/threads/${thread.thread_id}/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(typeof (await response.json()).detail).toBe("string");
    }
    const unknownAssistant = await server.request(`/threads/${thread.thread_id}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "no-such-graph" }),
    });
    expect(unknownAssistant.status).toBe(404);
    expect(await server.client.runs.list(thread.thread_id)).toEqual([]);
  });
});

describe("deleting a thread with a running run", () => {
  it("stops the run and ends its waiters", async () => {
    const thread = await server.client.threads.create();
    const run = await server.client.runs.create(thread.thread_id, "slow", { input: human("doomed"), context: { step_ms: 300 } });
    // Running: its input's values were streamed.
    await untilRunValues(server.client, thread.thread_id, run.run_id, (values) => contents(values).includes("doomed"));
    const joined = server.request(`/threads/${thread.thread_id}/runs/${run.run_id}/join`);
    await server.client.threads.delete(thread.thread_id);
    expect((await joined).status).toBe(404);
    await expect(server.client.runs.get(thread.thread_id, run.run_id)).rejects.toThrow(/404/);
    // Aborted, not left to finish its remaining ~700 ms of steps.
    const deadline = Date.now() + 400;
    while (server.hangar.worker!.activeRunCount > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(server.hangar.worker!.activeRunCount).toBe(0);
  });
});

describe("stateless batch with a bad item", () => {
  it("queues nothing when one assistant does not exist", async () => {
    const before = await server.request("/threads/count", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }).then((r) => r.json());
    const response = await server.request("/runs/batch", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([
        { assistant_id: "echo", input: human("fine"), on_completion: "keep" },
        { assistant_id: "no-such-graph", input: human("bad") },
      ]),
    });
    expect(response.status).toBe(404);
    expect((await response.json()).detail).toMatch(/no-such-graph/);
    const after = await server.request("/threads/count", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }).then((r) => r.json());
    expect(after).toBe(before);
  });
});
