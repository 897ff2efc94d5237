import { randomUUID } from "node:crypto";
import path from "node:path";
import { print, type FormattedExecutionResult } from "graphql";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { RunEventBus } from "../../src/streaming/run-event-bus.js";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";
import { signUserToken } from "../helpers/user-tokens.js";
import { ThreadEventsDocument, type ThreadEventFieldsFragment, type ThreadEventsSubscriptionVariables } from "./generated/graphql.js";
import { graphqlWebSocketUrl } from "./helpers.js";
import { CONDITION_TIMEOUT_MS } from "../helpers/condition-timeout.js";

// The GraphQL subscription threadEvents over a real graphql-ws WebSocket: the protocol v2 event
// channels of a thread, the same events (ids, data) as the protocol's own SSE stream sends.

const fixtures = path.dirname(FIXTURE_DEPLOYMENT);
let server: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startTestServer({ configPath: path.join(fixtures, "protocol.langgraph.json") });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(clients.splice(0).map((client) => client.dispose()));
});
afterAll(async () => {
  await server?.close();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });

function connect(target: TestServer, headers: Record<string, string> = {}): Client {
  class WebSocketWithHeaders extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  }
  const client = createClient({ url: graphqlWebSocketUrl(target), webSocketImpl: WebSocketWithHeaders, retryAttempts: 0 });
  clients.push(client);
  return client;
}

type Result = FormattedExecutionResult<{ threadEvents: ThreadEventFieldsFragment }, unknown>;

/** A threadEvents subscription's events, read until `until` holds (then unsubscribed); errors fail. */
async function readThreadEvents(
  client: Client,
  variables: ThreadEventsSubscriptionVariables,
  until: (event: ThreadEventFieldsFragment, all: ThreadEventFieldsFragment[]) => boolean,
): Promise<ThreadEventFieldsFragment[]> {
  const events: ThreadEventFieldsFragment[] = [];
  for await (const result of client.iterate({ query: print(ThreadEventsDocument), variables }) as AsyncIterable<Result>) {
    expect(result.errors).toBeUndefined();
    events.push(result.data!.threadEvents);
    if (until(result.data!.threadEvents, events)) break;
  }
  return events;
}

/** The first result of a subscription that is expected to fail. */
async function firstResult(client: Client, variables: Record<string, unknown>): Promise<Result> {
  for await (const result of client.iterate({ query: print(ThreadEventsDocument), variables }) as AsyncIterable<Result>) return result;
  throw new Error("the subscription completed without a result");
}

const isRootEnd = (event: ThreadEventFieldsFragment) =>
  event.method === "lifecycle" && event.namespace.length === 0 && ["completed", "failed", "interrupted"].includes(String((event.data as { event: string }).event));

async function startRun(threadId: string, params: Record<string, unknown>, target = server, headers: Record<string, string> = {}) {
  const response = await fetch(`${target.url}/threads/${threadId}/commands`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ id: 1, method: "run.start", params }),
  });
  const body = (await response.json()) as { type: string; result: { run_id: string } };
  expect(body).toMatchObject({ type: "success" });
  return body.result.run_id;
}

/** The protocol's own SSE event stream of the thread, replayed after `since`, until `until`. */
async function protocolSseEvents(threadId: string, filter: Record<string, unknown>, until: (event: ThreadEventFieldsFragment) => boolean) {
  const response = await server.request(`/threads/${threadId}/stream/events`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify(filter),
  });
  const events: Array<{ method: string; seq: number; event_id: string; params: { namespace: string[]; data: unknown } }> = [];
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of response.body!) {
    buffered += decoder.decode(chunk as Uint8Array, { stream: true });
    let end;
    while ((end = buffered.indexOf("\n\n")) >= 0) {
      const data = buffered.slice(0, end).split("\n").find((line) => line.startsWith("data: "));
      buffered = buffered.slice(end + 2);
      if (!data) continue;
      const event = JSON.parse(data.slice(6)) as (typeof events)[number];
      events.push(event);
      if (until({ method: event.method, namespace: event.params.namespace, data: event.params.data } as ThreadEventFieldsFragment)) return events;
    }
  }
  return events;
}

describe("threadEvents", () => {
  it("carries the channels asked for, as the protocol's SSE stream sends them", async () => {
    const threadId = randomUUID();
    await startRun(threadId, { assistant_id: "echo", input: human("hi") });
    // Without `since` the stream starts at the thread's latest run: all of it, however fast it ran.
    const events = await readThreadEvents(connect(server), { threadId, channels: ["values", "lifecycle"] }, isRootEnd);
    expect(events.map((event) => event.method)).toEqual(["lifecycle", "values", "values", "lifecycle"]);
    expect(events[0]!.data).toMatchObject({ event: "started" });
    expect(events[2]!.data).toEqual({ messages: [expect.objectContaining({ content: "hi" }), expect.objectContaining({ content: "echo: hi" })] });
    expect(events.at(-1)!.data).toMatchObject({ event: "completed" });

    const overSse = await protocolSseEvents(threadId, { channels: ["values", "lifecycle"] }, isRootEnd);
    expect(events.map((event) => [event.eventId, event.seq, event.method, event.namespace, event.data])).toEqual(
      overSse.map((event) => [event.event_id, event.seq, event.method, event.params.namespace, event.params.data]),
    );
  });

  it("streams a model's tokens live on the messages channel", async () => {
    const threadId = randomUUID();
    await server.client.threads.create({ threadId });
    const listeners = trackThreadListeners();
    const client = connect(server);
    const reading = readThreadEvents(client, { threadId, channels: ["messages", "lifecycle"] }, isRootEnd);
    await vi.waitFor(() => expect(listeners.open()).toBe(1), { timeout: CONDITION_TIMEOUT_MS });
    await startRun(threadId, { assistant_id: "agent", input: human("tell me something") });
    const events = await reading;
    const deltas = events.filter((event) => (event.data as { event?: string }).event === "content-block-delta");
    expect(deltas.length).toBeGreaterThan(1);
    const streamed = deltas.map((event) => (event.data as { delta: { text: string } }).delta.text).join("");
    const state = await server.client.threads.getState(threadId);
    expect((state.values as { messages: Array<{ content: unknown }> }).messages.at(-1)!.content).toBe(streamed);
    expect(events.find((event) => event.method === "messages")!.node).toEqual(expect.any(String));
  });

  it("keeps the namespaces and depth asked for: a subgraph's own level", async () => {
    const threadId = randomUUID();
    await startRun(threadId, { assistant_id: "nested", input: {} });
    const events = await readThreadEvents(
      connect(server),
      { threadId, channels: ["updates", "lifecycle"], namespaces: [["planner"]], depth: 0 },
      // The planner's own end is not a lifecycle event: its last update (the writer node) is.
      (event) => event.method === "updates" && (event.data as { node: string }).node === "writer",
    );
    expect(events.map((event) => [event.method, (event.data as { node?: string; event?: string }).node ?? (event.data as { event: string }).event])).toEqual([
      ["lifecycle", "started"],
      ["updates", "plan"],
      ["updates", "writer"],
    ]);
    for (const event of events) expect(event.namespace).toEqual([expect.stringMatching(/^planner:/)]);
  });

  it("resumes after `since` without loss or duplicates", async () => {
    const threadId = randomUUID();
    const firstRun = await startRun(threadId, { assistant_id: "nested", input: {} });
    const channels = ["updates", "values", "lifecycle"];
    const all = await readThreadEvents(connect(server), { threadId, channels, since: 0 }, isRootEnd);
    // A client that stopped after the events of its third stored event resumes from that seq.
    const seqs = [...new Set(all.map((event) => event.seq))];
    expect(seqs.length).toBeGreaterThan(4);
    const cut = seqs[2]!;
    const seen = all.filter((event) => event.seq <= cut);
    const resumed = await readThreadEvents(connect(server), { threadId, channels, since: cut }, isRootEnd);
    expect([...seen, ...resumed].map((event) => event.eventId)).toEqual(all.map((event) => event.eventId));
    // A second run on the thread: resuming after the first run's end sees only the new one.
    const secondRun = await startRun(threadId, { assistant_id: "echo", input: human("again") });
    const next = await readThreadEvents(connect(server), { threadId, channels: ["lifecycle"], since: all.at(-1)!.seq }, isRootEnd);
    expect(next.map((event) => (event.data as { event: string }).event)).toEqual(["started", "completed"]);
    // Each event names its run (the protocol's own events do not).
    expect(new Set(all.map((event) => event.runId))).toEqual(new Set([firstRun]));
    expect(new Set(next.map((event) => event.runId))).toEqual(new Set([secondRun]));
  });

  it("refuses bad arguments with INVALID_INPUT naming the problem, and an unknown thread with NOT_FOUND", async () => {
    const threadId = randomUUID();
    await server.client.threads.create({ threadId });
    const client = connect(server);
    for (const [variables, message] of [
      [{ threadId, channels: ["valuez"] }, /channels must be a non-empty list of values, updates/],
      [{ threadId, channels: [] }, /channels must be a non-empty list/],
      [{ threadId, channels: ["values"], namespaces: ["planner"] }, /namespaces must be a list of namespaces/],
      [{ threadId, channels: ["values"], depth: -1 }, /depth must be a non-negative integer/],
      [{ threadId, channels: ["values"], since: 1.5 }, /since must be a non-negative integer/],
    ] as const) {
      const result = await firstResult(client, variables);
      expect(result.errors?.[0]).toMatchObject({ message: expect.stringMatching(message), extensions: { code: "INVALID_INPUT" } });
    }
    const unknown = await firstResult(client, { threadId: randomUUID(), channels: ["values"] });
    expect(unknown.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("releases the thread's bus listener when the client unsubscribes", async () => {
    const threadId = randomUUID();
    await server.client.threads.create({ threadId });
    const listeners = trackThreadListeners();
    const subscription = connect(server).iterate({ query: print(ThreadEventsDocument), variables: { threadId, channels: ["values"] } });
    const first = subscription.next();
    await vi.waitFor(() => expect(listeners.open()).toBe(1), { timeout: CONDITION_TIMEOUT_MS });
    await subscription.return!();
    await vi.waitFor(() => expect(listeners.open()).toBe(0), { timeout: CONDITION_TIMEOUT_MS });
    await expect(first).resolves.toMatchObject({ done: true });
  });
});

describe("threadEvents under custom auth", () => {
  let authServer: TestServer;
  beforeAll(async () => {
    authServer = await startTestServer({ configPath: path.join(fixtures, "auth.langgraph.json") });
  });
  afterAll(async () => {
    await authServer?.close();
  });

  it("streams the caller's own thread; another user's thread is NOT_FOUND", async () => {
    const alice = { authorization: `Bearer ${await signUserToken("alice")}` };
    const bob = { authorization: `Bearer ${await signUserToken("bob")}` };
    const threadId = randomUUID();
    await startRun(threadId, { assistant_id: "whoami", input: human("who?") }, authServer, alice);
    const events = await readThreadEvents(connect(authServer, alice), { threadId, channels: ["values", "lifecycle"] }, isRootEnd);
    expect(JSON.stringify(events.filter((event) => event.method === "values").at(-1)!.data)).toContain("alice");
    const refused = await firstResult(connect(authServer, bob), { threadId, channels: ["values"], since: 0 });
    expect(refused.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect(refused.data ?? null).toBeNull();
  });
});

/** Counts the thread-stream bus listeners subscriptions hold, through the running server's own bus. */
function trackThreadListeners(): { open: () => number } {
  const bus: RunEventBus = server.hangar.runtime.streaming.bus;
  const original = bus.subscribeThread.bind(bus);
  let open = 0;
  vi.spyOn(bus, "subscribeThread").mockImplementation((id, listener) => {
    open++;
    const off = original(id, listener);
    let released = false;
    return () => {
      if (!released) open--;
      released = true;
      off();
    };
  });
  return { open: () => open };
}
