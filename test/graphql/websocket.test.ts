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

/** A graphql-ws client whose upgrade request carries these headers (ws accepts them; browsers cannot). */
function connect(headers: Record<string, string>): Client {
  class WebSocketWithHeaders extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  }
  const client = createClient({ url: graphqlWebSocketUrl(server), webSocketImpl: WebSocketWithHeaders, retryAttempts: 0 });
  clients.push(client);
  return client;
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

  it("refuses the upgrade with 401 without a valid key, and hangs up on other paths", async () => {
    expect(await upgradeStatus("/graphql")).toBe(401);
    expect(await upgradeStatus("/graphql", { "x-api-key": "wrong" })).toBe(401);
    expect(await upgradeStatus("/graphql", { "x-api-key": API_KEY })).toBe(101);
    expect(await upgradeStatus("/threads", { "x-api-key": API_KEY })).toBe("destroyed");
  });

  it("reports the refusal to a graphql-ws client", async () => {
    const client = connect({});
    await expect(executeOverWebSocket(client, GetThreadDocument, { threadId: "x" })).rejects.toBeTruthy();
  });
});
