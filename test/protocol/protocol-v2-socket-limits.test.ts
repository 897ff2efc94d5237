import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { MAX_SOCKET_BACKLOG_BYTES, SLOW_CONSUMER_CLOSE } from "../../src/http/protocol-websocket.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// A protocol WebSocket is closed with a clear code when the server cannot go on serving it: its
// reader fell behind, or the server shuts down.
//
// A protocol WebSocket is closed once more than MAX_SOCKET_BACKLOG_BYTES wait unsent, instead of
// growing the server's memory: here a `since: 0` replay of ~32 MB of events, which the server
// sends in one go, faster than any reader takes them.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ maxBodyBytes: 20 * 1024 * 1024 });
});
afterAll(async () => {
  await server?.close();
});

describe("a protocol WebSocket reader that falls behind", () => {
  it("is closed with 1008 once its backlog passes the bound", { timeout: 60_000 }, async () => {
    const thread = await server.client.threads.create();
    // values (8 MB), updates (8 MB) and values again (16 MB): the echo repeats the message.
    await server.client.runs.wait(thread.thread_id, "echo", { input: { messages: [{ role: "user", content: "x".repeat(8 * 1024 * 1024) }] } });
    const socket = new WebSocket(`${server.url.replace("http", "ws")}/threads/${thread.thread_id}/stream/events`);
    const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    socket.send(JSON.stringify({ id: 1, method: "subscription.subscribe", params: { channels: ["values", "updates"], since: 0 } }));
    const { code, reason } = await closed;
    expect(code).toBe(SLOW_CONSUMER_CLOSE);
    expect(reason).toContain(String(MAX_SOCKET_BACKLOG_BYTES));
  });
});

describe("shutdown", () => {
  it("closes open protocol sockets with 1001", async () => {
    const stopping = await startTestServer();
    const socket = new WebSocket(`${stopping.url.replace("http", "ws")}/threads/${crypto.randomUUID()}/stream/events`);
    const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    const subscribed = new Promise((resolve) => socket.once("message", resolve));
    socket.send(JSON.stringify({ id: 1, method: "subscription.subscribe", params: { channels: ["values"] } }));
    await subscribed;
    await stopping.close();
    expect(await closed).toBe(1001);
  });
});
