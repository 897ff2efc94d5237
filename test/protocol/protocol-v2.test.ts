import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import path from "node:path";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";
import { protocolWire, rootFinished } from "./protocol-wire-client.js";

// LangGraph streaming protocol v2 on a real Hangar: the official SDK 1.15's client.threads.stream
// over both transports, and the wire (raw WebSocket frames, SSE, commands) for what the SDK does
// not show: replay with `since`, interrupts answered with input.respond, bad input.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ maxBodyBytes: 64 * 1024, configPath: path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "protocol.langgraph.json") });
});
afterAll(async () => {
  await server?.close();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });

const { openSocket, postCommand, readEventStream } = protocolWire(() => server);

describe("the SDK's client.threads.stream", () => {
  for (const transport of ["sse", "websocket"] as const) {
    it(`runs a graph on a new thread and resolves its output over ${transport}`, async () => {
      const thread = server.client.threads.stream({ assistantId: "echo", transport });
      try {
        await thread.run.start({ input: human(`hello over ${transport}`) });
        const output = (await thread.output) as { messages: Array<{ content: string }> };
        expect(output.messages.map((message) => message.content)).toEqual([`hello over ${transport}`, `echo: hello over ${transport}`]);
      } finally {
        await thread.close();
      }
      // The thread the SDK named exists and holds the run's state.
      const state = await server.client.threads.getState(thread.threadId);
      expect((state.values as { messages: unknown[] }).messages).toHaveLength(2);
    });
  }
});

describe("the WebSocket transport", () => {
  it("answers bad frames with the protocol's errors and stays open; starts nothing", async () => {
    const threadId = randomUUID();
    const { socket, next, command } = await openSocket(threadId);
    socket.send("{not json");
    expect(await next((frame) => frame.type === "error")).toMatchObject({ id: null, error: "invalid_argument", message: expect.stringMatching(/JSON/) });
    socket.send(JSON.stringify({ id: "x", method: "state.get" }));
    expect(await next((frame) => frame.type === "error")).toMatchObject({ id: null, error: "invalid_argument", message: expect.stringMatching(/id/) });
    expect(await command("agent.fly", {})).toMatchObject({ type: "error", error: "unknown_command", message: expect.stringMatching(/agent\.fly/) });
    expect(await command("subscription.subscribe", { channels: ["nope"] })).toMatchObject({ type: "error", error: "invalid_argument", message: expect.stringMatching(/channels/) });
    expect(await command("subscription.unsubscribe", { subscription_id: "nope" })).toMatchObject({ type: "error", error: "no_such_subscription" });
    expect(await command("run.start", { input: {} })).toMatchObject({ type: "error", error: "invalid_argument", message: expect.stringMatching(/assistant_id/) });
    expect(await command("run.start", { assistant_id: "no-such-graph", input: {} })).toMatchObject({ type: "error", error: "no_such_run" });
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
    expect((await server.client.runs.list(threadId).catch(() => [])).length).toBe(0);
  });

  it("closes with 1009 on a frame over the body limit", async () => {
    const { socket, closed } = await openSocket(randomUUID());
    socket.send(JSON.stringify({ id: 1, method: "run.start", params: { assistant_id: "echo", input: { big: "x".repeat(70 * 1024) } } }));
    expect(await closed).toBe(1009);
  });

  it("streams a subscribed run's channels, then replays it after `since` with a count", async () => {
    const threadId = randomUUID();
    const live = await openSocket(threadId);
    const subscribed = await live.command("subscription.subscribe", { channels: ["values", "updates", "lifecycle"] });
    expect(subscribed).toMatchObject({ type: "success", result: { subscription_id: expect.any(String), replayed_events: 0 } });
    const started = await live.command("run.start", { assistant_id: "echo", input: human("hi") });
    expect(started).toMatchObject({ type: "success", result: { run_id: expect.any(String) } });
    await live.next(rootFinished);
    const events = live.frames.filter((frame) => frame.type === "event");
    expect(events.map((frame) => frame.method)).toEqual(["lifecycle", "values", "updates", "values"]);
    expect(events[2]!.params!.data).toEqual({ node: "echo", values: { messages: [{ role: "assistant", content: "echo: hi" }] } });
    live.socket.close();

    const firstSeq = events[0]!.seq!;
    const replay = await openSocket(threadId);
    const replayed = await replay.command("subscription.subscribe", { channels: ["values"], since: firstSeq });
    // Both values events come after the run's first event.
    expect(replayed.result).toMatchObject({ replayed_events: 2 });
    const values = [await replay.next((frame) => frame.method === "values"), await replay.next((frame) => frame.method === "values")];
    expect(values.map((frame) => frame.seq)).toEqual(events.filter((frame) => frame.method === "values").map((frame) => frame.seq));
    replay.socket.close();
  });
});

describe("channels", () => {
  it("streams a model's tokens as message-start, text deltas and message-finish", async () => {
    const { command, next, frames, socket } = await openSocket(randomUUID());
    await command("subscription.subscribe", { channels: ["messages", "lifecycle"] });
    await command("run.start", { assistant_id: "agent", input: human("tell me something") });
    await next(rootFinished);
    const data = frames.filter((frame) => frame.method === "messages").map((frame) => frame.params!.data);
    const ai = data.filter((_item, index) => index >= data.findIndex((item) => item.event === "message-start" && item.role === "ai"));
    expect(ai[0]).toMatchObject({ event: "message-start", role: "ai", id: expect.any(String) });
    const deltas = ai.filter((item) => item.event === "content-block-delta");
    expect(deltas.length).toBeGreaterThan(1);
    const finished = ai.find((item) => item.event === "content-block-finish")!;
    const streamed = deltas.map((item) => (item.delta as { text: string }).text).join("");
    expect(finished.content).toEqual({ type: "text", text: streamed });
    expect(ai.some((item) => item.event === "message-finish")).toBe(true);
    // The streamed text is the message the run stored.
    const state = await server.client.threads.getState(socket.url.split("/").at(-3)!);
    const messages = (state.values as { messages: Array<{ content: unknown }> }).messages;
    expect(messages.at(-1)!.content).toBe(streamed);
    socket.close();
  });

  it("names subgraph namespaces, filters them by prefix and depth, and answers agent.getTree", async () => {
    const threadId = randomUUID();
    const { command, next, frames, socket } = await openSocket(threadId);
    await command("subscription.subscribe", { channels: ["updates"], namespaces: [["planner"]], depth: 0 });
    await command("subscription.subscribe", { channels: ["lifecycle"] });
    await command("run.start", { assistant_id: "nested", input: {} });
    await next(rootFinished);
    const updates = frames.filter((frame) => frame.method === "updates");
    // Only the planner's own level: its nodes, not the writer's inside it, not the outer graph's.
    expect(updates.map((frame) => frame.params!.data.node)).toEqual(["plan", "writer"]);
    for (const frame of updates) expect(frame.params!.namespace).toEqual([expect.stringMatching(/^planner:/)]);
    const started = frames.filter((frame) => frame.method === "lifecycle" && frame.params!.data.event === "started");
    expect(started.map((frame) => frame.params!.namespace.map((segment) => segment.split(":")[0]))).toEqual([[], ["planner"], ["planner", "writer"]]);
    const tree = await command("agent.getTree", {});
    expect(tree.result).toMatchObject({
      tree: {
        namespace: [],
        graph_name: "nested",
        status: "completed",
        children: [{ namespace: [expect.stringMatching(/^planner:/)], children: [{ namespace: [expect.stringMatching(/^planner:/), expect.stringMatching(/^writer:/)], children: [] }] }],
      },
    });
    socket.close();
  });
});

describe("the SSE transport and commands", () => {
  it("asks for input on an interrupt and resumes with input.respond, only while interrupted", async () => {
    const threadId = randomUUID();
    const interrupted = readEventStream(threadId, { channels: ["input", "lifecycle"], since: 0 }, rootFinished);
    // The stream creates the thread; since 0 replays the run from its start whenever the stream attaches.
    await expect.poll(async () => (await server.request(`/threads/${threadId}`)).status).toBe(200);
    const started = await postCommand(threadId, "run.start", { assistant_id: "interrupting", input: human("please") });
    expect(started).toMatchObject({ status: 200, body: { type: "success", id: 1, result: { run_id: expect.any(String) } } });
    const frames = await interrupted;
    const request = frames.find((frame) => frame.method === "input.requested")!;
    expect(request.params!.data).toMatchObject({ interrupt_id: expect.any(String), payload: { question: "approve?" } });
    expect(frames.at(-1)!.params!.data.event).toBe("interrupted");

    expect((await postCommand(threadId, "input.respond", { namespace: [], interrupt_id: "nope", response: "yes" })).body).toMatchObject({ type: "error", error: "no_such_interrupt" });
    const interruptId = String(request.params!.data.interrupt_id);
    const resumed = await postCommand(threadId, "input.respond", { namespace: [], interrupt_id: interruptId, response: "yes" });
    expect(resumed.body).toMatchObject({ type: "success", result: { run_id: expect.any(String) } });
    await server.client.runs.join(threadId, String(resumed.body.result!.run_id));
    const state = await postCommand(threadId, "state.get", { namespace: [], keys: ["messages"] });
    expect(state.body).toMatchObject({ type: "success", result: { values: { messages: [{ content: "please" }, { content: "approved: yes" }] }, checkpoint: { id: expect.any(String) } } });
    // No longer interrupted: a second answer is refused and starts nothing.
    expect((await postCommand(threadId, "input.respond", { namespace: [], interrupt_id: interruptId, response: "again" })).body).toMatchObject({ type: "error", error: "no_such_interrupt" });
    expect(await server.client.runs.list(threadId)).toHaveLength(2);
  });

  it("refuses malformed commands and filters with 400 naming the problem; state.get of an unknown thread is not found", async () => {
    const threadId = randomUUID();
    const bad = await server.request(`/threads/${threadId}/commands`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ method: "state.get" }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ type: "error", error: "invalid_argument", message: expect.stringMatching(/id/) });
    const filter = await server.request(`/threads/${threadId}/stream/events`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ channels: [] }) });
    expect(filter.status).toBe(400);
    expect(await filter.json()).toMatchObject({ error: "invalid_argument", message: expect.stringMatching(/channels/) });
    expect((await postCommand(threadId, "state.get", { namespace: [] })).body).toMatchObject({ type: "error", id: 1, error: "no_such_run", message: expect.stringMatching(threadId) });
  });
});
