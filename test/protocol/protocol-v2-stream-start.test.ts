import { randomUUID } from "node:crypto";
import path from "node:path";
import { print, type FormattedExecutionResult } from "graphql";
import { createClient, type Client } from "graphql-ws";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ThreadEventsDocument, type ThreadEventFieldsFragment } from "../graphql/generated/graphql.js";
import { graphqlWebSocketUrl } from "../graphql/helpers.js";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";
import { protocolWire, rootFinished, type Frame } from "./protocol-wire-client.js";
import { CONDITION_TIMEOUT_MS } from "../helpers/condition-timeout.js";

// Where a thread's protocol stream starts and what its lifecycle `started` events name, the same
// over the three transports that carry it: SSE (POST /threads/{id}/stream/events), the protocol's
// WebSocket and GraphQL's threadEvents.

let server: TestServer;
const graphqlClients: Client[] = [];

beforeAll(async () => {
  server = await startTestServer({ configPath: path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "protocol.langgraph.json") });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(graphqlClients.splice(0).map((client) => client.dispose()));
});
afterAll(async () => {
  await server?.close();
});

const { openSocket, postCommand, readEventStream } = protocolWire(() => server);

const TRANSPORTS = ["sse", "websocket", "graphql"] as const;
type Transport = (typeof TRANSPORTS)[number];

/** What the tests compare, whichever transport carried the event. */
interface Seen {
  eventId: string;
  seq: number;
  method: string;
  namespace: string[];
  data: Record<string, unknown>;
}

const ofFrame = (frame: Frame): Seen => ({ eventId: frame.event_id!, seq: frame.seq!, method: frame.method!, namespace: frame.params!.namespace, data: frame.params!.data });

/** A thread's protocol events over one transport, from where a stream without `since` starts, until `rootEnds` runs ended. */
async function readThread(transport: Transport, threadId: string, channels: string[], rootEnds: number): Promise<Seen[]> {
  let ends = 0;
  const until = (event: Seen) => rootFinished({ type: "event", method: event.method, params: { namespace: event.namespace, data: event.data } }) && ++ends === rootEnds;
  if (transport === "sse") {
    const seen: Seen[] = [];
    await readEventStream(threadId, { channels }, (frame) => {
      if (frame.type !== "event") return false;
      seen.push(ofFrame(frame));
      return until(seen.at(-1)!);
    });
    return seen;
  }
  if (transport === "websocket") {
    const socket = await openSocket(threadId);
    expect(await socket.command("subscription.subscribe", { channels })).toMatchObject({ type: "success" });
    const seen: Seen[] = [];
    try {
      do seen.push(ofFrame(await socket.next((frame) => frame.type === "event")));
      while (!until(seen.at(-1)!));
    } finally {
      socket.socket.close();
    }
    return seen;
  }
  const client = createClient({ url: graphqlWebSocketUrl(server), retryAttempts: 0 });
  graphqlClients.push(client);
  const seen: Seen[] = [];
  type Result = FormattedExecutionResult<{ threadEvents: ThreadEventFieldsFragment }, unknown>;
  for await (const result of client.iterate({ query: print(ThreadEventsDocument), variables: { threadId, channels } }) as AsyncIterable<Result>) {
    expect(result.errors).toBeUndefined();
    const event = result.data!.threadEvents;
    seen.push({ eventId: event.eventId, seq: event.seq, method: event.method, namespace: event.namespace, data: event.data as Record<string, unknown> });
    if (until(seen.at(-1)!)) break;
  }
  return seen;
}

async function startRun(threadId: string, params: Record<string, unknown>): Promise<string> {
  const started = await postCommand(threadId, "run.start", params);
  expect(started.body).toMatchObject({ type: "success" });
  return String(started.body.result!.run_id);
}

const startedEvents = (events: Seen[]) => events.filter((event) => event.method === "lifecycle" && event.data.event === "started");

describe("lifecycle `started`", () => {
  it.each(TRANSPORTS)("names the run's graph for the root and the subgraph's for a namespace, live and replayed, over %s", async (transport) => {
    const threadId = randomUUID();
    await server.client.threads.create({ threadId });
    // Live: a stream without `since` on an idle thread starts now, so it is attached (its first
    // lifecycle event is the run's own) before the run starts.
    const listeners = countThreadListeners(threadId);
    const live = readThread(transport, threadId, ["lifecycle"], 1);
    await vi.waitFor(() => expect(listeners()).toBe(1), { timeout: CONDITION_TIMEOUT_MS });
    const runId = await startRun(threadId, { assistant_id: "nested", input: {} });
    const replayedNames = (events: Seen[]) => startedEvents(events).map((event) => [event.namespace.map((segment) => segment.split(":")[0]), event.data.graph_name]);
    const expected = [
      [[], "nested"],
      [["planner"], "planner"],
      [["planner", "writer"], "writer"],
    ];
    expect(replayedNames(await live)).toEqual(expected);
    await server.client.runs.join(threadId, runId);
    // Replayed: the ended run is read back from the store.
    expect(replayedNames(await readThread(transport, threadId, ["lifecycle"], 1))).toEqual(expected);
  });
});

describe("a stream opened without `since`", () => {
  it.each(TRANSPORTS)("starts at the run in progress, then the queued run, each event once and in order, over %s", async (transport) => {
    const threadId = randomUUID();
    const channels = ["lifecycle", "values"];
    const running = await startRun(threadId, { assistant_id: "slow", input: { messages: [] }, context: { step_ms: 1500 } });
    // The running run has stored its first events before the stream opens.
    await readEventStream(threadId, { channels: ["values"], since: 0 }, (frame) => frame.method === "values");
    const queued = await startRun(threadId, { assistant_id: "slow", input: { messages: [] }, context: { step_ms: 1 } });
    expect((await server.client.runs.get(threadId, queued)).status).toBe("pending");
    expect((await server.client.runs.get(threadId, running)).status).toBe("running");

    const events = await readThread(transport, threadId, channels, 2);
    const oneRun = [["lifecycle", "started"], ...Array.from({ length: 4 }, () => ["values", undefined]), ["lifecycle", "completed"]];
    expect(events.map((event) => [event.method, event.data.event])).toEqual([...oneRun, ...oneRun]);
    expect(startedEvents(events).map((event) => event.data.graph_name)).toEqual(["slow", "slow"]);
    // The running run's first values (its empty input) comes first; the queued run starts from the state the first one left.
    expect(events[1]!.data).toEqual({ messages: [] });
    expect((events[4]!.data.messages as unknown[]).length).toBe(3);
    expect(events[7]!.data).toEqual(events[4]!.data);
    expect(new Set(events.map((event) => event.eventId)).size).toBe(events.length);
    const seqs = events.map((event) => event.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // The thread's whole stream (its only runs are these two): nothing was skipped at the start.
    let ends = 0;
    const all = await readEventStream(threadId, { channels, since: 0 }, (frame) => rootFinished(frame) && ++ends === 2);
    expect(all.map((frame) => frame.event_id)).toEqual(events.map((event) => event.eventId));
  });
});

/** How many thread streams of the thread the running server holds (its bus's listeners), from now on. */
function countThreadListeners(threadId: string): () => number {
  const bus = server.hangar.runtime.streaming.bus;
  const subscribe = bus.subscribeThread.bind(bus);
  let open = 0;
  vi.spyOn(bus, "subscribeThread").mockImplementation((id, listener) => {
    if (id !== threadId) return subscribe(id, listener);
    open++;
    const unsubscribe = subscribe(id, listener);
    let released = false;
    return () => {
      if (!released) open--;
      released = true;
      unsubscribe();
    };
  });
  return () => open;
}
