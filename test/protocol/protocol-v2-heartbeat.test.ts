import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Heartbeats of protocol v2's quiet streams, at HANGAR_PROTOCOL_HEARTBEAT_MS: SSE comment lines
// and WebSocket pings; a socket that answers no ping is dropped. Nothing here sleeps: each test
// waits for the frames themselves. The default interval (15 s) is far longer than a test waits,
// so heartbeats that arrive at all came from the configured one.

const HEARTBEAT_MS = 200;
const DEFAULT_HEARTBEAT_MS = 15_000;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { HANGAR_PROTOCOL_HEARTBEAT_MS: String(HEARTBEAT_MS) } });
});
afterAll(async () => {
  await server?.close();
});

function openSocket(threadId: string, options: WebSocket.ClientOptions = {}): Promise<WebSocket> {
  const socket = new WebSocket(`${server.url.replace("http", "ws")}/threads/${threadId}/stream/events`, options);
  return new Promise((resolve, reject) => {
    socket.once("open", () => resolve(socket));
    socket.once("error", reject);
  });
}

describe("protocol v2 heartbeats", () => {
  it("pings a quiet WebSocket subscription at the configured interval", async () => {
    const socket = await openSocket(randomUUID());
    const openedAt = Date.now();
    const pings: number[] = [];
    const threePings = new Promise<void>((resolve) =>
      socket.on("ping", () => {
        pings.push(Date.now() - openedAt);
        if (pings.length === 3) resolve();
      }),
    );
    socket.send(JSON.stringify({ id: 1, method: "subscription.subscribe", params: { channels: ["values"] } }));
    await threePings;
    expect(pings[2]).toBeLessThan(DEFAULT_HEARTBEAT_MS);
    // Answered pings keep the socket open.
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });

  it("drops a socket that answers no ping", async () => {
    const socket = await openSocket(randomUUID(), { autoPong: false });
    const code = await new Promise<number>((resolve) => socket.once("close", (closeCode) => resolve(closeCode)));
    // Terminated, not closed by a handshake: the peer is presumed gone.
    expect(code).toBe(1006);
  });

  it("sends an SSE comment line on a quiet event stream at the configured interval", async () => {
    const threadId = randomUUID();
    const openedAt = Date.now();
    const response = await server.request(`/threads/${threadId}/stream/events`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ channels: ["values", "lifecycle"] }),
    });
    expect(response.status).toBe(200);
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of response.body!) {
      text += decoder.decode(chunk as Uint8Array, { stream: true });
      if (text.split(": heartbeat\n\n").length > 3) break;
    }
    expect(Date.now() - openedAt).toBeLessThan(DEFAULT_HEARTBEAT_MS);
    // Nothing else was sent on the quiet thread.
    expect(text.replaceAll(": heartbeat\n\n", "")).toBe("");
  });
});
