import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";
import { signUserToken } from "../helpers/user-tokens.js";

// Streaming protocol v2 under the README's JWT custom auth (examples/auth/auth.ts): the WebSocket
// upgrade and every command run as the caller; another user's thread is not found on both
// transports and nothing is started on it.
const AUTH_DEPLOYMENT = path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "auth.langgraph.json");

let server: TestServer;
let alice: Client;
let bob: Client;
let aliceToken: string;
let bobToken: string;

beforeAll(async () => {
  server = await startTestServer({ configPath: AUTH_DEPLOYMENT });
  aliceToken = await signUserToken("alice");
  bobToken = await signUserToken("bob");
  alice = new Client({ apiUrl: server.url, defaultHeaders: { authorization: `Bearer ${aliceToken}` }, callerOptions: { maxRetries: 0 } });
  bob = new Client({ apiUrl: server.url, defaultHeaders: { authorization: `Bearer ${bobToken}` }, callerOptions: { maxRetries: 0 } });
});
afterAll(async () => {
  await server?.close();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });

function socketOf(threadId: string, token?: string): WebSocket {
  return new WebSocket(`${server.url.replace("http", "ws")}/threads/${threadId}/stream/events`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

async function commandOver(socket: WebSocket, frame: unknown): Promise<Record<string, unknown>> {
  await new Promise<void>((resolve, reject) => {
    if (socket.readyState === WebSocket.OPEN) return resolve();
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  const answer = new Promise<Record<string, unknown>>((resolve) => socket.once("message", (data) => resolve(JSON.parse(data.toString()))));
  socket.send(JSON.stringify(frame));
  return answer;
}

describe("protocol v2 under custom auth", () => {
  it("refuses an upgrade without a valid token with the handler's 401", async () => {
    const socket = socketOf("00000000-0000-4000-8000-000000000000");
    const status = await new Promise<number>((resolve) => socket.once("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0)));
    expect(status).toBe(401);
  });

  it("runs the SDK's threads.stream as the caller over both transports", async () => {
    for (const transport of ["sse", "websocket"] as const) {
      // The SDK refuses default headers on its WebSocket transport (browsers cannot send them);
      // in Node its webSocketFactory sends the token with the upgrade instead.
      const client = transport === "sse" ? alice : new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
      const thread = client.threads.stream({
        assistantId: "whoami",
        transport,
        ...(transport === "websocket" ? { webSocketFactory: (url: string) => new WebSocket(url, { headers: { authorization: `Bearer ${aliceToken}` } }) as never } : {}),
      });
      try {
        await thread.run.start({ input: human("who am i?") });
        expect(JSON.stringify(await thread.output)).toContain("alice");
      } finally {
        await thread.close();
      }
      expect((await alice.threads.get(thread.threadId)).metadata).toMatchObject({ owner: "alice" });
    }
  });

  it("answers not found for another user's thread on every command and starts nothing", async () => {
    const thread = await alice.threads.create();
    await alice.runs.wait(thread.thread_id, "echo", { input: human("mine") });
    const [aliceRun] = await alice.runs.list(thread.thread_id);
    const aliceCheckpoint = (await alice.threads.getState(thread.thread_id)).checkpoint.checkpoint_id;
    const socket = socketOf(thread.thread_id, bobToken);
    for (const [method, params] of [
      ["run.start", { assistant_id: "echo", input: human("theirs") }],
      ["state.get", { namespace: [] }],
      ["agent.getTree", {}],
      ["subscription.subscribe", { channels: ["values"] }],
      ["subscription.reconnect", { run_id: aliceRun!.run_id, subscriptions: [] }],
      ["input.inject", { namespace: [], message: { role: "user", content: "theirs" } }],
      ["state.listCheckpoints", {}],
      ["state.fork", { checkpoint_id: aliceCheckpoint, input: human("theirs") }],
    ] as const) {
      expect(await commandOver(socket, { id: 1, method, params })).toMatchObject({ type: "error", id: 1, error: "no_such_run" });
    }
    socket.close();
    const overHttp = await fetch(`${server.url}/threads/${thread.thread_id}/commands`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${bobToken}` },
      body: JSON.stringify({ id: 2, method: "run.start", params: { assistant_id: "echo", input: human("theirs") } }),
    });
    expect(await overHttp.json()).toMatchObject({ type: "error", id: 2, error: "no_such_run" });
    const stream = await fetch(`${server.url}/threads/${thread.thread_id}/stream/events`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${bobToken}` },
      body: JSON.stringify({ channels: ["values"] }),
    });
    expect(stream.status).toBe(404);
    expect(await alice.runs.list(thread.thread_id)).toHaveLength(1);
    await expect(bob.threads.get(thread.thread_id)).rejects.toMatchObject({ status: 404 });
  });
});
