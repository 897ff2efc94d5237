import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print, type FormattedExecutionResult } from "graphql";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { RunEventBus } from "../../src/streaming/run-event-bus.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import {
  CreateRunDocument,
  CreateThreadDocument,
  RunEventsDocument,
  type RunEventFieldsFragment,
} from "./generated/graphql.js";
import { executeOk, graphqlWebSocketUrl } from "./helpers.js";
import { CONDITION_TIMEOUT_MS } from "../helpers/condition-timeout.js";

const API_KEY = "run-subscriptions-key";

let server: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [API_KEY] });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(clients.splice(0).map((client) => client.dispose()));
});

afterAll(async () => {
  await server?.close();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });

/** A graphql-ws client whose upgrade request carries these headers (ws accepts them; browsers cannot). */
function connect(headers: Record<string, string> = { "x-api-key": API_KEY }): Client {
  class WebSocketWithHeaders extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  }
  const client = createClient({ url: graphqlWebSocketUrl(server), webSocketImpl: WebSocketWithHeaders, retryAttempts: 0 });
  clients.push(client);
  return client;
}

function subscribe<TData, TVariables extends Record<string, unknown>>(
  client: Client,
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
): AsyncIterableIterator<FormattedExecutionResult<TData, unknown>> {
  return client.iterate<TData>({ query: print(document), variables });
}

async function createThread(): Promise<string> {
  const { createThread: created } = await executeOk(server, CreateThreadDocument, { input: {} });
  return created.thread.threadId;
}

async function createRun(threadId: string, graph: "echo" | "slow", extra: Record<string, unknown> = {}) {
  const { createRun: created } = await executeOk(server, CreateRunDocument, {
    input: { threadId, assistantId: graph, input: human("go"), streamMode: ["UPDATES"], ...extra },
  });
  return created.run;
}

/**
 * Counts the bus listeners subscriptions hold, through the running server's own bus: proves a
 * subscription is live before the test starts a run, and that unsubscribing releases it.
 */
function trackBusListeners(kind: "subscribeRun" | "subscribeThread"): { open: () => number } {
  const bus: RunEventBus = server.hangar.runtime.streaming.bus;
  const original = bus[kind].bind(bus);
  let open = 0;
  vi.spyOn(bus, kind).mockImplementation((id, listener) => {
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

const namesOf = (events: RunEventFieldsFragment[]) => events.map((event) => event.event);

describe("runEvents over graphql-ws", () => {
  it("streams a live slow run's events in order and completes when the run ends", async () => {
    const threadId = await createThread();
    const run = await createRun(threadId, "slow", { context: { step_ms: 50 } });
    const events: RunEventFieldsFragment[] = [];
    for await (const result of subscribe(connect(), RunEventsDocument, { runId: run.runId })) {
      expect(result.errors).toBeUndefined();
      events.push(result.data!.runEvents);
    }
    expect(namesOf(events)).toEqual(["metadata", "updates", "updates", "updates"]);
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
    expect(events[0]).toMatchObject({ runId: run.runId, threadId, mode: "metadata", data: { run_id: run.runId, attempt: 1 } });
    expect(events.slice(1).map((event) => Object.keys(event.data as object))).toEqual([["first"], ["second"], ["third"]]);
    expect((await server.client.runs.get(threadId, run.runId)).status).toBe("success");
  });

  it("replays a finished run from afterSeq, then completes", async () => {
    const threadId = await createThread();
    const run = await createRun(threadId, "echo");
    await server.client.runs.join(threadId, run.runId);
    const events: RunEventFieldsFragment[] = [];
    for await (const result of subscribe(connect(), RunEventsDocument, { runId: run.runId, afterSeq: 1 })) {
      events.push(result.data!.runEvents);
    }
    expect(events.map((event) => [event.seq, event.event])).toEqual([[2, "updates"]]);
    expect(events[0]!.data).toEqual({ echo: { messages: [{ role: "assistant", content: "echo: go" }] } });
  });

  it("reports NOT_FOUND for an unknown run", async () => {
    const results = [];
    for await (const result of subscribe(connect(), RunEventsDocument, { runId: "00000000-0000-4000-8000-000000000000" })) {
      results.push(result);
    }
    expect(results).toHaveLength(1);
    expect(results[0]!.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("releases the run's bus listener when the client unsubscribes from a quiet run", async () => {
    const listeners = trackBusListeners("subscribeRun");
    const threadId = await createThread();
    // Not due for an hour: its stream stays open and silent until the client leaves.
    const run = await createRun(threadId, "echo", { afterSeconds: 3_600 });
    const subscription = subscribe(connect(), RunEventsDocument, { runId: run.runId });
    const first = subscription.next();
    await vi.waitFor(() => expect(listeners.open()).toBe(1), { timeout: CONDITION_TIMEOUT_MS });
    await subscription.return!();
    await vi.waitFor(() => expect(listeners.open()).toBe(0), { timeout: CONDITION_TIMEOUT_MS });
    await expect(first).resolves.toMatchObject({ done: true });
  });
});

/** The `next` payloads of a GraphQL-over-SSE response (Yoga's distinct-connections mode), until `complete`. */
async function readSseResults(response: Response): Promise<Array<{ data?: { runEvents: RunEventFieldsFragment }; errors?: unknown[] }>> {
  const results = [];
  const text = await response.text();
  for (const frame of text.split("\n\n")) {
    const lines = frame.split("\n");
    const event = lines.find((line) => line.startsWith("event:"))?.slice("event:".length).trim();
    const data = lines.filter((line) => line.startsWith("data:")).map((line) => line.slice("data:".length).trim()).join("\n");
    if (event === "next") results.push(JSON.parse(data));
  }
  return results;
}

function postSubscription(body: object, headers: Record<string, string> = { "x-api-key": API_KEY }, signal?: AbortSignal) {
  return fetch(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
    body: JSON.stringify(body),
    signal,
  });
}

describe("runEvents over Yoga's SSE (POST /graphql, Accept: text/event-stream)", () => {
  it("streams a run's events and completes when the run ends", async () => {
    const threadId = await createThread();
    const run = await createRun(threadId, "slow", { context: { step_ms: 20 } });
    const response = await postSubscription({ query: print(RunEventsDocument), variables: { runId: run.runId } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const results = await readSseResults(response);
    expect(results.every((result) => result.errors === undefined)).toBe(true);
    expect(results.map((result) => result.data!.runEvents.event)).toEqual(["metadata", "updates", "updates", "updates"]);
    expect(results.map((result) => result.data!.runEvents.seq)).toEqual([1, 2, 3, 4]);
  });

  it("releases the run's bus listener when the client disconnects", async () => {
    const listeners = trackBusListeners("subscribeRun");
    const threadId = await createThread();
    const run = await createRun(threadId, "echo", { afterSeconds: 3_600 });
    const disconnect = new AbortController();
    const response = await postSubscription(
      { query: print(RunEventsDocument), variables: { runId: run.runId } },
      undefined,
      disconnect.signal,
    );
    expect(response.status).toBe(200);
    await vi.waitFor(() => expect(listeners.open()).toBe(1), { timeout: CONDITION_TIMEOUT_MS });
    disconnect.abort();
    await vi.waitFor(() => expect(listeners.open()).toBe(0), { timeout: CONDITION_TIMEOUT_MS });
  });
});

describe("API keys", () => {
  it("refuses an SSE subscription without a key like any HTTP request", async () => {
    const threadId = await createThread();
    const run = await createRun(threadId, "echo");
    const response = await postSubscription({ query: print(RunEventsDocument), variables: { runId: run.runId } }, {});
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ detail: expect.stringContaining("API key") });
  });

  it("refuses a WebSocket without a key before any subscription starts", async () => {
    const listeners = trackBusListeners("subscribeRun");
    const threadId = await createThread();
    const run = await createRun(threadId, "echo");
    const subscription = subscribe(connect({}), RunEventsDocument, { runId: run.runId });
    await expect(subscription.next()).rejects.toBeTruthy();
    const wrongKey = subscribe(connect({ "x-api-key": "wrong" }), RunEventsDocument, { runId: run.runId });
    await expect(wrongKey.next()).rejects.toBeTruthy();
    expect(listeners.open()).toBe(0);
  });
});
