import path from "node:path";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { Client as SdkClient } from "@langchain/langgraph-sdk";
import { print, type FormattedExecutionResult } from "graphql";
import { SignJWT } from "jose";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";
import { EXAMPLE_JWT_SECRET, signUserToken } from "../helpers/user-tokens.js";
import {
  CreateThreadDocument,
  DeleteStoreItemDocument,
  GetStoreItemDocument,
  GetStoreItemNodeDocument,
  GetThreadDocument,
  ListStoreNamespacesDocument,
  PutStoreItemDocument,
  SearchStoreItemsDocument,
  ListThreadsDocument,
  RunEventsDocument,
  UpdateThreadDocument,
  ViewerDocument,
} from "./generated/graphql.js";
import { graphqlWebSocketUrl } from "./helpers.js";

// Custom auth over GraphQL's three transports (HTTP, SSE subscriptions, graphql-ws): the same
// user and the same filters as REST (the README's JWT example deployment).
const AUTH_DEPLOYMENT = path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "auth.langgraph.json");

let server: TestServer;
let aliceToken: string;
let bobToken: string;
let aliceThreadId: string;
let aliceRunId: string;
const sockets: Client[] = [];

beforeAll(async () => {
  server = await startTestServer({ configPath: AUTH_DEPLOYMENT });
  aliceToken = await signUserToken("alice", undefined, ["read"]);
  bobToken = await signUserToken("bob");
  const alice = new SdkClient({ apiUrl: server.url, defaultHeaders: { authorization: `Bearer ${aliceToken}` } });
  aliceThreadId = (await alice.threads.create({ metadata: { topic: "graphql" } })).thread_id;
  aliceRunId = (await alice.runs.create(aliceThreadId, "echo", { input: { messages: [{ role: "user", content: "hi" }] } })).run_id;
  await alice.runs.join(aliceThreadId, aliceRunId);
});
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((socket) => socket.dispose()));
});
afterAll(async () => {
  await server?.close();
});

async function overHttp<TData, TVariables>(
  token: string | null,
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
  accept = "application/graphql-response+json",
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query: print(document), variables }),
  });
  return { status: response.status, text: await response.text() };
}

function overWebSocket(connectionParams: Record<string, unknown> | undefined): Client {
  const client = createClient({ url: graphqlWebSocketUrl(server), webSocketImpl: WebSocket, retryAttempts: 0, connectionParams });
  sockets.push(client);
  return client;
}

async function first<TData, TVariables extends Record<string, unknown>>(
  client: Client,
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
): Promise<FormattedExecutionResult<TData, unknown>> {
  for await (const result of client.iterate<TData>({ query: print(document), variables })) return result;
  throw new Error("no result");
}

describe("GraphQL over HTTP", () => {
  it("answers the handler's 401 without a token", async () => {
    const { status, text } = await overHttp(null, ViewerDocument, {});
    expect(status).toBe(401);
    expect(text).toMatch(/token/);
  });

  it("knows the viewer and hides another user's thread from reads, lists and mutations", async () => {
    const viewer = JSON.parse((await overHttp(aliceToken, ViewerDocument, {})).text);
    expect(viewer.data.viewer).toEqual({ kind: "user", identity: "alice", displayName: "alice", permissions: ["read"], isAuthenticated: true });

    const read = JSON.parse((await overHttp(bobToken, GetThreadDocument, { threadId: aliceThreadId })).text);
    expect(read.errors[0].extensions.code).toBe("NOT_FOUND");
    const list = JSON.parse((await overHttp(bobToken, ListThreadsDocument, { metadata: { topic: "graphql" } })).text);
    expect(list.data.threads.totalCount).toBe(0);
    const update = JSON.parse(
      (await overHttp(bobToken, UpdateThreadDocument, { input: { threadId: aliceThreadId, metadata: { topic: "bob" } } })).text,
    );
    expect(update.errors[0].extensions.code).toBe("NOT_FOUND");

    const own = JSON.parse((await overHttp(aliceToken, ListThreadsDocument, { metadata: { topic: "graphql" } })).text);
    expect(own.data.threads.edges.map((edge: { node: { threadId: string } }) => edge.node.threadId)).toEqual([aliceThreadId]);
    const created = JSON.parse((await overHttp(bobToken, CreateThreadDocument, { input: { metadata: {} } })).text);
    expect(created.data.createThread.thread.metadata).toEqual({ owner: "bob" });
  });

  it("refuses a subscription to another user's run over SSE", async () => {
    const { status, text } = await overHttp(bobToken, RunEventsDocument, { runId: aliceRunId }, "text/event-stream");
    expect(status).toBe(200);
    expect(text).toContain("NOT_FOUND");
    expect(text).not.toContain('"runEvents":{');
  });
});

describe("the store over GraphQL", () => {
  const query = async <TData, TVariables>(token: string, document: TypedDocumentNode<TData, TVariables>, variables: TVariables) =>
    JSON.parse((await overHttp(token, document, variables)).text) as { data: TData; errors?: unknown[] };

  it("prefixes namespaces with the caller's id: bob reaches none of alice's items through any field", async () => {
    // The case: ["alice", "bob"] written by alice was visible to bob under `$contains`.
    const put = await query(aliceToken, PutStoreItemDocument, { input: { namespace: ["alice", "bob"], key: "k", value: { text: "alice's secret" } } });
    expect(put.data.putStoreItem.storeItem.namespace).toEqual(["alice", "bob"]);
    const itemId = put.data.putStoreItem.storeItem.id;
    await query(aliceToken, PutStoreItemDocument, { input: { namespace: ["notes"], key: "k", value: { text: "alice's secret" } } });

    const seenByBob = [
      await query(bobToken, GetStoreItemDocument, { namespace: ["alice", "bob"], key: "k" }),
      await query(bobToken, GetStoreItemDocument, { namespace: ["notes"], key: "k" }),
      await query(bobToken, GetStoreItemNodeDocument, { id: itemId }),
      await query(bobToken, SearchStoreItemsDocument, {}),
      await query(bobToken, SearchStoreItemsDocument, { namespacePrefix: ["alice"] }),
      await query(bobToken, SearchStoreItemsDocument, { filter: { text: "alice's secret" } }),
      await query(bobToken, ListStoreNamespacesDocument, {}),
      await query(bobToken, ListStoreNamespacesDocument, { prefix: ["alice"] }),
      await query(bobToken, ListStoreNamespacesDocument, { prefix: ["*", "bob"] }),
    ];
    expect(JSON.stringify(seenByBob)).not.toContain("alice");
    expect(seenByBob.map((answer) => answer.errors)).toEqual(seenByBob.map(() => undefined));

    // Bob's delete under her names is in his own space: her items stay.
    await query(bobToken, DeleteStoreItemDocument, { input: { namespace: ["alice", "bob"], key: "k" } });
    const own = await query(aliceToken, SearchStoreItemsDocument, { filter: { text: "alice's secret" } });
    expect(own.data.storeItems.edges.map((edge) => edge.node.namespace)).toEqual(expect.arrayContaining([["alice", "bob"], ["alice", "notes"]]));
    expect(own.data.storeItems.totalCount).toBe(2);
  });
});

describe("graphql-ws", () => {
  it("authenticates the token from connectionParams and applies the same filters", async () => {
    const bob = overWebSocket({ authorization: `Bearer ${bobToken}` });
    expect((await first(bob, ViewerDocument, {})).data?.viewer.identity).toBe("bob");
    expect((await first(bob, GetThreadDocument, { threadId: aliceThreadId })).errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect((await first(bob, RunEventsDocument, { runId: aliceRunId })).errors?.[0]?.extensions?.code).toBe("NOT_FOUND");

    const alice = overWebSocket({ authorization: `Bearer ${aliceToken}` });
    const events = await first(alice, RunEventsDocument, { runId: aliceRunId });
    expect(events.errors).toBeUndefined();
    expect(events.data?.runEvents.event).toBe("metadata");
  });

  it("closes the socket (4403), ending its subscriptions, when the token from connection_init expires", async () => {
    const alice = new SdkClient({ apiUrl: server.url, defaultHeaders: { authorization: `Bearer ${aliceToken}` } });
    const threadId = (await alice.threads.create()).thread_id;
    const run = await alice.runs.create(threadId, "slow", { input: { messages: [{ role: "user", content: "long" }] }, context: { step_ms: 5_000 } });
    // Started (its first event is out) before the short-lived token is signed.
    for await (const _started of alice.runs.joinStream(threadId, run.run_id)) break;
    // A token that expires in 4-5 s (exp is in whole seconds), and a run that outlasts it (15 s).
    const expiresAt = (Math.floor(Date.now() / 1000) + 5) * 1000;
    const shortLived = await new SignJWT({ scopes: [] })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("alice")
      .setExpirationTime(expiresAt / 1000)
      .sign(new TextEncoder().encode(EXAMPLE_JWT_SECRET));
    const socket = overWebSocket({ authorization: `Bearer ${shortLived}` });
    const received: string[] = [];
    const closed = (async () => {
      for await (const result of socket.iterate({ query: print(RunEventsDocument), variables: { runId: run.run_id } })) {
        received.push((result.data as { runEvents: { event: string } }).runEvents.event);
      }
    })().then(
      () => ({ code: 0, at: Date.now() }),
      (error: { code?: number }) => ({ code: error.code, at: Date.now() }),
    );
    const outcome = await closed;
    expect(outcome.code).toBe(4403);
    expect(outcome.at).toBeGreaterThanOrEqual(expiresAt);
    // Served while the token was valid, then cut off long before the run's end.
    expect(received[0]).toBe("metadata");
    expect((await alice.runs.get(threadId, run.run_id)).status).toBe("running");
    await alice.runs.cancel(threadId, run.run_id, true);

    // A socket opened with an already expired token is refused at connection_init.
    await expect(first(overWebSocket({ authorization: `Bearer ${shortLived}` }), ViewerDocument, {})).rejects.toMatchObject({ code: 4403 });
  });

  it("closes a connection without a valid token (4403) and refuses a bad token in the upgrade (401)", async () => {
    const anonymous = overWebSocket(undefined);
    await expect(first(anonymous, ViewerDocument, {})).rejects.toMatchObject({ code: 4403 });
    const forged = overWebSocket({ authorization: "Bearer forged" });
    await expect(first(forged, ViewerDocument, {})).rejects.toMatchObject({ code: 4403 });

    const status = await new Promise<number>((resolve) => {
      const socket = new WebSocket(graphqlWebSocketUrl(server), "graphql-transport-ws", { headers: { authorization: "Bearer forged" } });
      socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
      socket.on("open", () => resolve(101));
    });
    expect(status).toBe(401);
  });
});
