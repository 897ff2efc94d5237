import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print, type FormattedExecutionResult } from "graphql";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { CreateThreadDocument, GetAssistantDocument, GetThreadDocument } from "./generated/graphql.js";
import { graphqlWebSocketUrl } from "./helpers.js";

const API_KEY = "ws-test-key";

let server: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [API_KEY] });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.dispose()));
});

afterAll(async () => {
  await server?.close();
});

/**
 * A graphql-ws client whose upgrade request carries these headers (ws accepts them; browsers
 * cannot) and whose connection_init carries these connectionParams (what browsers use).
 */
function connect(headers: Record<string, string>, connectionParams?: Record<string, unknown>): Client {
  class WebSocketWithHeaders extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  }
  const client = createClient({
    url: graphqlWebSocketUrl(server),
    webSocketImpl: WebSocketWithHeaders,
    retryAttempts: 0,
    connectionParams,
  });
  clients.push(client);
  return client;
}

async function countThreads(): Promise<number> {
  const response = await server.request("/threads/count", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  return (await response.json()) as number;
}

/** The close code of a client whose connection the server ends. */
function closeCodeOf(client: Client): Promise<number> {
  return new Promise((resolve) => client.on("closed", (event) => resolve((event as { code: number }).code)));
}

async function executeOverWebSocket<TData, TVariables extends Record<string, unknown>>(
  client: Client,
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
): Promise<FormattedExecutionResult<TData, unknown>> {
  for await (const result of client.iterate<TData>({ query: print(document), variables })) return result;
  throw new Error("the operation completed without a result");
}

/** The HTTP status the server answers a WebSocket upgrade with, or "destroyed" if it hangs up. */
function upgradeStatus(pathname: string, headers: Record<string, string> = {}): Promise<number | "destroyed"> {
  return new Promise((resolve) => {
    const socket = new WebSocket(graphqlWebSocketUrl(server, pathname), "graphql-transport-ws", { headers });
    socket.on("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on("open", () => {
      resolve(101);
      socket.close();
    });
    socket.on("error", () => resolve("destroyed"));
  });
}

describe("graphql-ws on /graphql", () => {
  it("runs queries and mutations over a WebSocket opened with an API key", async () => {
    const client = connect({ "x-api-key": API_KEY });
    const created = await executeOverWebSocket(client, CreateThreadDocument, { input: { metadata: { via: "ws" } } });
    expect(created.errors).toBeUndefined();
    const threadId = created.data!.createThread.thread.threadId;

    const read = await executeOverWebSocket(client, GetThreadDocument, { threadId });
    expect(read.data?.thread).toMatchObject({ threadId, metadata: { via: "ws" }, assistant: null });
  });

  it("maps errors exactly as over HTTP", async () => {
    const client = connect({ authorization: `Bearer ${API_KEY}` });
    const result = await executeOverWebSocket(client, GetAssistantDocument, {
      assistantId: "00000000-0000-4000-8000-000000000000",
    });
    expect(result.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("refuses the upgrade with 401 for a wrong key, defers a missing one to connection_init, hangs up on other paths", async () => {
    expect(await upgradeStatus("/graphql", { "x-api-key": "wrong" })).toBe(401);
    expect(await upgradeStatus("/graphql", { authorization: "Bearer wrong" })).toBe(401);
    expect(await upgradeStatus("/graphql", { "x-api-key": API_KEY })).toBe(101);
    // Browsers cannot send headers: the key then comes in connectionParams (below).
    expect(await upgradeStatus("/graphql")).toBe(101);
    expect(await upgradeStatus("/threads", { "x-api-key": API_KEY })).toBe("destroyed");
  });

  it("accepts the key from connectionParams, as x-api-key or a bearer authorization", async () => {
    for (const params of [{ "x-api-key": API_KEY }, { Authorization: `Bearer ${API_KEY}` }]) {
      const client = connect({}, params);
      const created = await executeOverWebSocket(client, CreateThreadDocument, { input: {} });
      expect(created.errors).toBeUndefined();
      expect(created.data?.createThread.thread.threadId).toBeTruthy();
    }
  });

  it("closes with 4403 when connection_init brings no valid key, before any operation runs", async () => {
    const threadsBefore = await countThreads();
    for (const params of [undefined, { "x-api-key": "wrong" }, { authorization: API_KEY }]) {
      const client = connect({}, params);
      const closed = closeCodeOf(client);
      await expect(executeOverWebSocket(client, CreateThreadDocument, { input: {} })).rejects.toBeTruthy();
      expect(await closed).toBe(4403);
    }
    expect(await countThreads()).toBe(threadsBefore);
  });
});
