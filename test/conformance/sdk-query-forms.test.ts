import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// SDK 2.x writes array options into the query string as one JSON array (`?stream_mode=["a","b"]`);
// other clients repeat the parameter. Both must mean the list.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });

async function finishedRun(streamMode: Array<"values" | "updates" | "debug">) {
  const thread = await server.client.threads.create();
  const run = await server.client.runs.create(thread.thread_id, "echo", { input: human("hi"), streamMode });
  await server.client.runs.join(thread.thread_id, run.run_id);
  return { threadId: thread.thread_id, runId: run.run_id };
}

describe("runs.joinStream with streamMode", () => {
  it("delivers exactly the listed modes (plus metadata)", async () => {
    const { threadId, runId } = await finishedRun(["values", "updates", "debug"]);
    const events: string[] = [];
    for await (const part of server.client.runs.joinStream(threadId, runId, { streamMode: ["values", "updates"] })) {
      events.push(part.event);
    }
    expect(events).toEqual(["metadata", "values", "updates", "values"]);
  });

  it("accepts one mode, and the repeated-parameter form on the wire", async () => {
    const { threadId, runId } = await finishedRun(["values", "updates"]);
    const single: string[] = [];
    for await (const part of server.client.runs.joinStream(threadId, runId, { streamMode: "updates" })) single.push(part.event);
    expect(single).toEqual(["metadata", "updates"]);
    const response = await server.request(`/threads/${threadId}/runs/${runId}/stream?stream_mode=updates&stream_mode=values`);
    const names = [...(await response.text()).matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
    expect(names).toEqual(["metadata", "values", "updates", "values"]);
  });

  it("refuses an unknown mode or a malformed array with 422 naming the parameter", async () => {
    const { threadId, runId } = await finishedRun(["values"]);
    for (const value of ['["values","nope"]', '["values"', "nope"]) {
      const response = await server.request(`/threads/${threadId}/runs/${runId}/stream?stream_mode=${encodeURIComponent(value)}`);
      expect(response.status).toBe(422);
      expect((await response.json()).detail).toMatch(/^Invalid query: stream_mode/);
    }
  });
});

describe("runs.list with select", () => {
  it("answers only the selected fields, from the SDK's JSON array or repeated parameters", async () => {
    const { threadId, runId } = await finishedRun(["values"]);
    const selected = await server.client.runs.list(threadId, { select: ["run_id", "status"] });
    expect(selected).toEqual([{ run_id: runId, status: "success" }]);
    const response = await server.request(`/threads/${threadId}/runs?select=run_id&select=thread_id`);
    expect(await response.json()).toEqual([{ run_id: runId, thread_id: threadId }]);
  });

  it("refuses a field a run does not have", async () => {
    const { threadId } = await finishedRun(["values"]);
    const response = await server.request(`/threads/${threadId}/runs?select=${encodeURIComponent('["run_id","nope"]')}`);
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toMatch(/select/);
  });
});

describe("threads.joinStream", () => {
  /** Reads the thread's stream until `done` says so, while two runs execute on the thread. */
  async function watchTwoRuns(streamMode: Array<"run_modes" | "lifecycle" | "state_update"> | undefined) {
    const thread = await server.client.threads.create();
    const abort = new AbortController();
    const seen: Array<{ event: string; runId?: string }> = [];
    let runDone = 0;
    const options = streamMode ? { streamMode, signal: abort.signal } : { signal: abort.signal };
    // The thread is subscribed once the stream's response starts: a client whose fetch says when.
    let subscribed!: () => void;
    const streamStarted = new Promise<void>((resolve) => (subscribed = resolve));
    const watcher = new Client({
      apiUrl: server.url,
      apiKey: null,
      callerOptions: {
        maxRetries: 0,
        fetch: async (...args: Parameters<typeof fetch>) => {
          const response = await fetch(...args);
          if (new URL(String(args[0] instanceof Request ? args[0].url : args[0])).pathname.endsWith("/stream")) subscribed();
          return response;
        },
      },
    });
    const reading = (async () => {
      for await (const part of watcher.threads.joinStream(thread.thread_id, options)) {
        seen.push({ event: part.event, runId: (part.data as { run_id?: string }).run_id });
        if (part.event === "run_done") runDone += 1;
      }
    })().catch((error: unknown) => {
      if (!abort.signal.aborted) throw error;
    });
    await streamStarted;
    const runIds: string[] = [];
    for (const content of ["one", "two"]) {
      const run = await server.client.runs.create(thread.thread_id, "echo", { input: human(content), streamMode: ["values", "updates"] });
      await server.client.runs.join(thread.thread_id, run.run_id);
      runIds.push(run.run_id);
    }
    // Every run's events come before its run_done; state_update has none, but a values event per step (two each).
    const complete = () => (streamMode?.[0] === "state_update" ? seen.length >= 4 : runDone >= 2);
    await vi.waitFor(() => expect(complete()).toBe(true), { timeout: 5_000, interval: 20 });
    abort.abort();
    await reading;
    return { seen, runIds };
  }

  it("run_modes (the default): every event of every run on the thread, live, and run_done", async () => {
    for (const streamMode of [undefined, ["run_modes" as const]]) {
      const { seen, runIds: [first, second] } = await watchTwoRuns(streamMode);
      expect(seen).toEqual([
        { event: "metadata", runId: first },
        { event: "values", runId: undefined },
        { event: "updates", runId: undefined },
        { event: "values", runId: undefined },
        { event: "run_done", runId: first },
        { event: "metadata", runId: second },
        { event: "values", runId: undefined },
        { event: "updates", runId: undefined },
        { event: "values", runId: undefined },
        { event: "run_done", runId: second },
      ]);
    }
  });

  it("lifecycle: only each run's start and end; state_update: only the state after each step", async () => {
    const lifecycle = await watchTwoRuns(["lifecycle"]);
    const [first, second] = lifecycle.runIds;
    expect(lifecycle.seen).toEqual([
      { event: "metadata", runId: first },
      { event: "run_done", runId: first },
      { event: "metadata", runId: second },
      { event: "run_done", runId: second },
    ]);
    const stateUpdates = await watchTwoRuns(["state_update"]);
    expect(stateUpdates.seen.map((entry) => entry.event)).toEqual(["values", "values", "values", "values"]);
  });

  it("refuses a run stream mode, and answers 404 for an unknown thread", async () => {
    const thread = await server.client.threads.create();
    const refused = await server.request(`/threads/${thread.thread_id}/stream?stream_mode=values`);
    expect(refused.status).toBe(422);
    const response = await server.request("/threads/00000000-0000-4000-8000-000000000000/stream");
    expect(response.status).toBe(404);
  });
});
