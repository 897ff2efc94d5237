import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";
import { protocolWire, rootFinished, type Frame } from "./protocol-wire-client.js";

// Protocol v2's tools channel and its commands beyond run.start / input.respond / subscriptions:
// input.inject, state.get of a subgraph, state.listCheckpoints, state.fork, subscription.reconnect
// (and SSE's Last-Event-ID), each on a real Hangar with its bad params.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ configPath: path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "protocol.langgraph.json") });
});
afterAll(async () => {
  await server?.close();
});

const { openSocket, postCommand, readEventStream } = protocolWire(() => server);
const human = (content: string) => ({ messages: [{ role: "user", content }] });
const toolData = (frames: Frame[]) => frames.filter((frame) => frame.method === "tools").map((frame) => frame.params!.data);

describe("the tools channel", () => {
  it("tells a ToolNode's call started and finished, over WebSocket", async () => {
    const { command, next, frames, socket } = await openSocket(randomUUID());
    await command("subscription.subscribe", { channels: ["tools", "lifecycle"] });
    await command("run.start", { assistant_id: "tool_agent", input: human("weather") });
    await next(rootFinished);
    expect(toolData(frames)).toEqual([
      { event: "tool-started", tool_call_id: expect.any(String), tool_name: "lookup", input: { query: "weather" } },
      { event: "tool-finished", tool_call_id: expect.any(String), output: expect.objectContaining({ content: "found: weather" }) },
    ]);
    const [started, finished] = toolData(frames);
    expect(finished!.tool_call_id).toBe(started!.tool_call_id);
    socket.close();
  });

  it("tells a tool's error, over SSE", async () => {
    const threadId = randomUUID();
    const stream = readEventStream(threadId, { channels: ["tools", "lifecycle"], since: 0 }, rootFinished);
    await expect.poll(async () => (await server.request(`/threads/${threadId}`)).status).toBe(200);
    expect((await postCommand(threadId, "run.start", { assistant_id: "tool_agent", input: human("explode now") })).body.type).toBe("success");
    const data = toolData(await stream);
    expect(data[0]).toMatchObject({ event: "tool-started", tool_name: "lookup" });
    expect(data.at(-1)).toEqual({ event: "tool-error", tool_call_id: data[0]!.tool_call_id, message: expect.stringMatching(/lookup exploded/) });
  });
});

describe("input.inject", () => {
  it("runs the thread's assistant on the injected message; refuses bad messages and other namespaces", async () => {
    const threadId = randomUUID();
    const first = await postCommand(threadId, "run.start", { assistant_id: "echo", input: human("one") });
    await server.client.runs.join(threadId, String(first.body.result!.run_id));
    for (const [params, error] of [
      [{ namespace: [], message: { role: "tool", content: "x" } }, "invalid_argument"],
      [{ namespace: [], message: { role: "user" } }, "invalid_argument"],
      [{ namespace: ["planner"], message: { role: "user", content: "x" } }, "not_supported"],
    ] as const) {
      expect((await postCommand(threadId, "input.inject", params)).body).toMatchObject({ type: "error", error });
    }
    expect((await postCommand(randomUUID(), "input.inject", { namespace: [], message: { role: "user", content: "x" } })).body).toMatchObject({ type: "error", error: "no_such_run" });
    const injected = await postCommand(threadId, "input.inject", { namespace: [], message: { role: "user", content: "two" } });
    expect(injected.body).toMatchObject({ type: "success", result: { run_id: expect.any(String) } });
    await server.client.runs.join(threadId, String(injected.body.result!.run_id));
    const state = await server.client.threads.getState(threadId);
    expect((state.values as { messages: Array<{ content: string }> }).messages.map((message) => message.content)).toEqual(["one", "echo: one", "two", "echo: two"]);
  });
});

describe("state commands", () => {
  it("reads a subgraph's state by its namespace; unknown namespaces are no_such_namespace", async () => {
    const { command, next, frames, socket } = await openSocket(randomUUID());
    await command("subscription.subscribe", { channels: ["lifecycle"] });
    await command("run.start", { assistant_id: "nested", input: {} });
    await next(rootFinished);
    const namespaces = frames.filter((frame) => frame.method === "lifecycle" && frame.params!.namespace.length > 0).map((frame) => frame.params!.namespace);
    const writer = namespaces.find((namespace) => namespace.length === 2)!;
    // Each subgraph's lifecycle: started, then completed once its task's result is in.
    const ofWriter = frames.filter((frame) => frame.method === "lifecycle" && frame.params!.namespace.join("|") === writer.join("|"));
    expect(ofWriter.map((frame) => frame.params!.data.event)).toEqual(["started", "completed"]);
    const root = await command("state.get", { namespace: [] });
    const inner = await command("state.get", { namespace: writer });
    // The writer's own state, not the root's (whose trail the subgraphs' outputs were added to).
    expect((root.result!.values as { trail: string[] }).trail.length).toBeGreaterThan(3);
    expect(inner).toMatchObject({ type: "success", result: { values: { trail: ["outer started", "planner planned", "writer drafted"] }, checkpoint: { id: expect.any(String), ns: writer.join("|") } } });
    expect(await command("state.get", { namespace: ["planner"] })).toMatchObject({ type: "error", error: "no_such_namespace" });
    expect(await command("state.get", { namespace: ["nowhere:1f0"] })).toMatchObject({ type: "error", error: "no_such_namespace" });
    expect(await command("state.get", { namespace: [1] })).toMatchObject({ type: "error", error: "invalid_argument", message: expect.stringMatching(/namespace/) });
    socket.close();
  });

  it("lists checkpoints newest first, pages with before, and forks a new branch from one", async () => {
    const threadId = randomUUID();
    const started = await postCommand(threadId, "run.start", { assistant_id: "echo", input: human("original") });
    await server.client.runs.join(threadId, String(started.body.result!.run_id));
    const listed = await postCommand(threadId, "state.listCheckpoints", { namespace: [] });
    const checkpoints = listed.body.result!.checkpoints as Array<{ id: string; step: number; timestamp: string }>;
    expect(checkpoints.map((checkpoint) => checkpoint.step)).toEqual([1, 0, -1]);
    expect(checkpoints[0]).toMatchObject({ id: expect.any(String), timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), metadata: { source: "loop", step: 1 } });
    const paged = await postCommand(threadId, "state.listCheckpoints", { limit: 1, before: checkpoints[0]!.id });
    expect((paged.body.result!.checkpoints as Array<{ id: string }>).map((checkpoint) => checkpoint.id)).toEqual([checkpoints[1]!.id]);
    for (const params of [{ limit: 0 }, { limit: "2" }, { before: 3 }]) {
      expect((await postCommand(threadId, "state.listCheckpoints", params)).body).toMatchObject({ type: "error", error: "invalid_argument" });
    }
    expect((await postCommand(threadId, "state.listCheckpoints", { before: "no-such" })).body).toMatchObject({ type: "error", error: "no_such_checkpoint" });

    // From the checkpoint before the first step (input written), with another input: a new branch.
    const inputCheckpoint = checkpoints.at(-1)!.id;
    const forked = await postCommand(threadId, "state.fork", { checkpoint_id: inputCheckpoint, input: human("forked") });
    expect(forked.body).toMatchObject({ type: "success", result: { run_id: expect.any(String), thread_id: threadId } });
    await server.client.runs.join(threadId, String(forked.body.result!.run_id));
    const state = await server.client.threads.getState(threadId);
    expect((state.values as { messages: Array<{ content: string }> }).messages.map((message) => message.content)).toEqual(["forked", "echo: forked"]);
    // The old branch is still there: the fork's first checkpoint is a child of the one forked from.
    const history = await server.client.threads.getHistory(threadId, { limit: 10 });
    expect(history.map((entry) => entry.checkpoint.checkpoint_id)).toEqual(expect.arrayContaining(checkpoints.map((checkpoint) => checkpoint.id)));
    expect(history.find((entry) => entry.parent_checkpoint?.checkpoint_id === inputCheckpoint && entry.checkpoint.checkpoint_id !== checkpoints[1]!.id)).toBeDefined();

    expect((await postCommand(threadId, "state.fork", {})).body).toMatchObject({ type: "error", error: "invalid_argument", message: expect.stringMatching(/checkpoint_id/) });
    expect((await postCommand(threadId, "state.fork", { checkpoint_id: "no-such" })).body).toMatchObject({ type: "error", error: "no_such_checkpoint" });
    expect(await server.client.runs.list(threadId)).toHaveLength(2);
  });
});

describe("resuming a stream", () => {
  it("subscription.reconnect restores a closed socket's subscriptions after the last event seen, no loss, no duplicate", async () => {
    const threadId = randomUUID();
    const first = await openSocket(threadId);
    const subscribed = await first.command("subscription.subscribe", { channels: ["values", "updates", "lifecycle"] });
    const subscriptionId = String(subscribed.result!.subscription_id);
    const run = await first.command("run.start", { assistant_id: "echo", input: human("hi") });
    const runId = String(run.result!.run_id);
    const finished = await first.next(rootFinished);
    const all = [...first.frames.filter((frame) => frame.type === "event"), finished];
    first.socket.close();

    // The client processed the first two events only.
    const second = await openSocket(threadId);
    const restored = await second.command("subscription.reconnect", { run_id: runId, last_event_id: all[1]!.event_id, subscriptions: [subscriptionId] });
    expect(restored).toMatchObject({ type: "success", result: { restored: true, missed_events: all.length - 2 } });
    const end = await second.next(rootFinished);
    const replayed = [...second.frames.filter((frame) => frame.type === "event"), end];
    expect(replayed.map((frame) => frame.event_id)).toEqual(all.slice(2).map((frame) => frame.event_id));
    // The restored subscription keeps its id: it can be unsubscribed.
    expect(await second.command("subscription.unsubscribe", { subscription_id: subscriptionId })).toMatchObject({ type: "success" });

    expect(await second.command("subscription.reconnect", { subscriptions: [subscriptionId] })).toMatchObject({ type: "error", error: "invalid_argument", message: expect.stringMatching(/run_id/) });
    expect(await second.command("subscription.reconnect", { run_id: randomUUID(), subscriptions: [subscriptionId] })).toMatchObject({ type: "error", error: "no_such_run" });
    expect(await second.command("subscription.reconnect", { run_id: runId, subscriptions: ["forged.abc"] })).toMatchObject({ type: "error", error: "no_such_subscription" });
    expect(await second.command("subscription.reconnect", { run_id: runId, last_event_id: "x", subscriptions: [subscriptionId] })).toMatchObject({ type: "error", error: "invalid_argument" });
    second.socket.close();
    // Over HTTP, the event stream itself is the subscription: reconnect says how to resume.
    expect((await postCommand(threadId, "subscription.reconnect", { run_id: runId })).body).toMatchObject({ type: "error", error: "not_supported", message: expect.stringMatching(/Last-Event-ID/) });
  });

  it("an SSE event stream with Last-Event-ID resumes after that event", async () => {
    const threadId = randomUUID();
    const started = await postCommand(threadId, "run.start", { assistant_id: "echo", input: human("hi") });
    await server.client.runs.join(threadId, String(started.body.result!.run_id));
    const filter = { channels: ["values", "lifecycle"] };
    const all = await readEventStream(threadId, { ...filter, since: 0 }, rootFinished);
    const resumed = await readEventStream(threadId, filter, rootFinished, { "last-event-id": all[0]!.event_id! });
    expect(resumed.map((frame) => frame.event_id)).toEqual(all.slice(1).map((frame) => frame.event_id));
    const bad = await server.request(`/threads/${threadId}/stream/events`, { method: "POST", headers: { "content-type": "application/json", "last-event-id": "nope" }, body: JSON.stringify(filter) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "invalid_argument", message: expect.stringMatching(/Last-Event-ID/) });
  });
});
