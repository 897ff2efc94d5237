import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client, type Cron, type CronCreateResponse, type StreamMode } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Options the SDK (1.15) declares, one test each, through the SDK Client against a running Hangar.
const here = path.dirname(fileURLToPath(import.meta.url));
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ configPath: path.resolve(here, "../fixtures/sdk-options.langgraph.json") });
});

afterAll(async () => {
  await server?.close();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });

async function threadWithTwoRuns() {
  const thread = await server.client.threads.create({ metadata: { owner: "ada" } });
  await server.client.runs.wait(thread.thread_id, "echo", { input: human("one") });
  await server.client.runs.wait(thread.thread_id, "echo", { input: human("two") });
  return thread.thread_id;
}

/**
 * A Client whose thread-stream requests report when their response has begun: the server has
 * subscribed by then, so runs started afterwards are seen whole (no waiting on a guess).
 */
function streamClient(): { client: Client; connected: Promise<void> } {
  let connect!: () => void;
  const connected = new Promise<void>((resolve) => (connect = resolve));
  const fetchReporting = async (...args: Parameters<typeof fetch>) => {
    const response = await fetch(...args);
    if (String(args[0] instanceof Request ? args[0].url : args[0]).includes("/stream")) connect();
    return response;
  };
  return { client: new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0, fetch: fetchReporting } }), connected };
}

async function collect<T>(events: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe("stream modes", () => {
  it("tools: each tool call's start and end, as LangGraph 1.7 reports them", async () => {
    const events = await collect(server.client.runs.stream(null, "tool_calling", { input: human("weather"), streamMode: ["tools"] }));
    const tools = events.filter((event) => event.event === "tools").map((event) => event.data);
    expect(tools).toEqual([
      // LangGraph reports the tool's input as the callbacks see it: the arguments' JSON text.
      { event: "on_tool_start", toolCallId: "call-1", name: "lookup", input: JSON.stringify({ query: "weather" }) },
      expect.objectContaining({ event: "on_tool_end", toolCallId: "call-1", name: "lookup", output: expect.objectContaining({ content: "found: weather" }) }),
    ]);
  });

  it("every mode of the installed LangGraph, plus the server's events and messages-tuple, streams its events", async () => {
    const modes: StreamMode[] = ["values", "updates", "messages", "messages-tuple", "custom", "events", "debug", "tasks", "checkpoints", "tools"];
    for (const mode of modes) {
      const events = await collect(server.client.runs.stream(null, "tool_calling", { input: human("q"), streamMode: [mode] }));
      const names = new Set(events.map((event) => event.event.split("/")[0]));
      expect({ mode, streamed: names.has(mode === "messages-tuple" ? "messages" : mode) }).toEqual({ mode, streamed: true });
      expect(names.has("error")).toBe(false);
    }
  });

  it("lifecycle (declared by the SDK, unknown to LangGraph 1.7 and LangGraph's server) is a 422 naming it", async () => {
    const stream = server.client.runs.stream(null, "echo", { input: human("x"), streamMode: ["lifecycle"] });
    await expect(collect(stream)).rejects.toThrow(/422.*lifecycle/s);
  });
});

describe("thread state reads", () => {
  it("getState select answers only the named fields, and values.<key> only that key", async () => {
    const threadId = await threadWithTwoRuns();
    const full = await server.client.threads.getState(threadId);
    const selected = await server.client.threads.getState(threadId, undefined, { select: ["values.messages", "next"] });
    expect(selected).toEqual({ values: { messages: (full.values as { messages: unknown[] }).messages }, next: [] });
    const checkpointId = full.checkpoint.checkpoint_id!;
    expect(await server.client.threads.getState(threadId, checkpointId, { select: ["checkpoint"] })).toEqual({ checkpoint: full.checkpoint });
    expect(await server.client.threads.getState(threadId, full.checkpoint, { select: ["created_at"] })).toEqual({ created_at: full.created_at });
    await expect(server.client.threads.getState(threadId, undefined, { select: ["nope" as "next"] })).rejects.toThrow(/422.*nope/s);
  });

  it("getHistory select applies to every state", async () => {
    const threadId = await threadWithTwoRuns();
    const history = await server.client.threads.getHistory(threadId, { limit: 3, select: ["checkpoint", "values.messages"] });
    expect(history).toHaveLength(3);
    for (const state of history) expect(Object.keys(state).sort()).toEqual(["checkpoint", "values"]);
    expect((history[0]!.values as { messages: unknown[] }).messages).toHaveLength(4);
  });

  it("GET /threads/{id}/history (Studio's form) answers like the POST", async () => {
    const threadId = await threadWithTwoRuns();
    const posted = await server.client.threads.getHistory(threadId, { limit: 2 });
    const response = await server.request(`/threads/${threadId}/history?limit=2`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(posted);
    const before = await server.request(`/threads/${threadId}/history?limit=1&before=${posted[0]!.checkpoint.checkpoint_id}`);
    expect(((await before.json()) as typeof posted)[0]!.checkpoint).toEqual(posted[1]!.checkpoint);
  });
});

describe("threads", () => {
  it("search extract answers each path's value per thread, null where it leads nowhere", async () => {
    const threadId = await threadWithTwoRuns();
    const [found] = await server.client.threads.search({
      ids: [threadId],
      select: ["thread_id"],
      extract: { last: "values.messages[-1].content", first: "values.messages[0].content", owner: "metadata.owner", missing: "values.nothing.here" },
    });
    expect(found).toEqual({ thread_id: threadId, extracted: { last: "echo: two", first: "one", owner: "ada", missing: null } });
  });

  it("search extract refuses a path outside the thread and more than 10 paths, naming them", async () => {
    await expect(server.client.threads.search({ extract: { bad: "status.x" } })).rejects.toThrow(/422.*extract\.bad/s);
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, index) => [`k${index}`, "values.x"]));
    await expect(server.client.threads.search({ extract: eleven })).rejects.toThrow(/422.*at most 10/s);
  });

  it("update with returnMinimal (Prefer: return=minimal) answers no body and still updates", async () => {
    const thread = await server.client.threads.create({ metadata: { a: 1 } });
    expect(await server.client.threads.update(thread.thread_id, { metadata: { b: 2 }, returnMinimal: true })).toBeUndefined();
    expect((await server.client.threads.get(thread.thread_id)).metadata).toEqual({ a: 1, b: 2 });
    const full = await server.client.threads.update(thread.thread_id, { metadata: { c: 3 } });
    expect(full.metadata).toEqual({ a: 1, b: 2, c: 3 });
  });
});

describe("thread stream (joinStream)", () => {
  it("numbers events across runs with ids that only grow, and replays after Last-Event-ID", async () => {
    const thread = await server.client.threads.create();
    const abort = new AbortController();
    const live: Array<{ id?: string; event: string; data: unknown }> = [];
    const { client, connected } = streamClient();
    const reading = (async () => {
      for await (const event of client.threads.joinStream(thread.thread_id, { signal: abort.signal })) {
        live.push(event);
        if (live.filter((seen) => seen.event === "run_done").length === 2) break;
      }
    })();
    await connected;
    const first = await server.client.runs.create(thread.thread_id, "echo", { input: human("one") });
    await server.client.runs.join(thread.thread_id, first.run_id);
    const second = await server.client.runs.create(thread.thread_id, "echo", { input: human("two") });
    await server.client.runs.join(thread.thread_id, second.run_id);
    await reading;
    abort.abort();

    // run_done is no stored event: it has no id of its own (an SSE client repeats the last one).
    const runEvents = live.filter((event) => event.event !== "run_done");
    expect(runEvents.every((event) => event.id !== undefined)).toBe(true);
    const ids = runEvents.map((event) => Number(event.id));
    expect(ids.every((id, index) => index === 0 || id > ids[index - 1]!)).toBe(true);
    const metadata = runEvents.filter((event) => event.event === "metadata").map((event) => (event.data as { run_id: string }).run_id);
    expect(metadata).toEqual([first.run_id, second.run_id]);
    expect(live.filter((event) => event.event === "run_done").map((event) => (event.data as { run_id: string }).run_id)).toEqual([first.run_id, second.run_id]);

    // Resuming after the first run's last event replays exactly the second run's, with the same ids.
    const lastOfFirst = runEvents.findIndex((event) => event.event === "metadata" && (event.data as { run_id: string }).run_id === second.run_id) - 1;
    const replay: typeof live = [];
    const replayAbort = new AbortController();
    const expected = runEvents.slice(lastOfFirst + 1);
    for await (const event of server.client.threads.joinStream(thread.thread_id, { lastEventId: runEvents[lastOfFirst]!.id, signal: replayAbort.signal })) {
      replay.push(event);
      if (replay.length === expected.length) break;
    }
    replayAbort.abort();
    expect(replay.map((event) => [event.id, event.event])).toEqual(expected.map((event) => [event.id, event.event]));
  });

  it("state_update mode sends the new values after updateState", async () => {
    const thread = await server.client.threads.create();
    await server.client.runs.wait(thread.thread_id, "echo", { input: human("one") });
    const abort = new AbortController();
    const { client, connected } = streamClient();
    const stream = client.threads.joinStream(thread.thread_id, { streamMode: "state_update", signal: abort.signal });
    const first = stream.next();
    await connected;
    await server.client.threads.updateState(thread.thread_id, { values: { messages: [{ role: "user", content: "edited" }] }, asNode: "echo" });
    const { value } = await first;
    abort.abort();
    expect(value).toMatchObject({ event: "values" });
    expect((value!.data as { messages: Array<{ content: string }> }).messages.map((message) => message.content)).toEqual(["one", "echo: one", "edited"]);
  });

  it("refuses a Last-Event-ID that is no id of a thread stream", async () => {
    const thread = await server.client.threads.create();
    const response = await server.request(`/threads/${thread.thread_id}/stream`, { headers: { "Last-Event-ID": "abc" } });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/Last-Event-ID/);
  });
});

describe("crons", () => {
  it("create({enabled: false}) stores a disabled cron without a next run; answers carry the SDK's fields", async () => {
    const created: CronCreateResponse = await server.client.crons.create("echo", { schedule: "0 3 * * *", input: human("x"), enabled: false, metadata: { team: "a" } });
    expect(created).toMatchObject({ enabled: false, next_run_date: null, on_run_completed: "delete", schedule: "0 3 * * *", metadata: { team: "a" } });
    const enabled = await server.client.crons.create("echo", { schedule: "0 3 * * *", input: human("x"), onRunCompleted: "keep" });
    const cron: Cron = (await server.client.crons.search({ metadata: {} })).find((found) => found.cron_id === enabled.cron_id)!;
    expect(cron).toMatchObject({ enabled: true, on_run_completed: "keep", timezone: "UTC", end_time: null, thread_id: null, payload: expect.any(Object) });
    expect(new Date(cron.next_run_date!).getUTCHours()).toBe(3);
    await server.client.crons.delete(created.cron_id);
    await server.client.crons.delete(enabled.cron_id);
  });

  it("search and count filter by metadata", async () => {
    const a = await server.client.crons.create("echo", { schedule: "0 4 * * *", input: human("x"), metadata: { team: "red", tier: 1 } });
    const b = await server.client.crons.create("echo", { schedule: "0 4 * * *", input: human("x"), metadata: { team: "blue" } });
    expect((await server.client.crons.search({ metadata: { team: "red" } })).map((cron) => cron.cron_id)).toEqual([a.cron_id]);
    expect(await server.client.crons.count({ metadata: { team: "blue" } })).toBe(1);
    expect(await server.client.crons.count({ metadata: { team: "green" } })).toBe(0);
    await server.client.crons.delete(a.cron_id);
    await server.client.crons.delete(b.cron_id);
  });

  it("update({endTime: null}) clears the end time", async () => {
    const endTime = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const cron = await server.client.crons.create("echo", { schedule: "0 5 * * *", input: human("x"), endTime });
    expect((await server.client.crons.update(cron.cron_id, { endTime: null })).end_time).toBeNull();
    await server.client.crons.delete(cron.cron_id);
  });
});
