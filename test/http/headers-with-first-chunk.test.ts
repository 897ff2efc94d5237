import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

/**
 * POST /threads/{id}/runs/stream sends its headers and the run's `metadata` event in one write
 * (src/http/headers-with-first-chunk.ts): every socket write from the response's status line to
 * the metadata event is made while the socket is corked, so they leave together when it is
 * uncorked. Without it, @hono/node-server flushed the headers at once on an uncorked socket and
 * the event followed in a write (and a packet) of its own. Observed on the server's side of the
 * socket, where the order is deterministic: a client reading the loopback in this same process
 * may find both writes already there and could not tell them apart.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
}, 120_000);

afterAll(async () => {
  await server?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a streamed run's first bytes", () => {
  it("leave in one write: the headers and the metadata event are buffered together on a corked socket", async () => {
    const thread = await server.client.threads.create();
    // The response socket's writes, each with whether the socket was corked, and its releases.
    const writes: Array<{ text: string; corked: number }> = [];
    let responseSocket: net.Socket | null = null;
    const write = net.Socket.prototype.write;
    vi.spyOn(net.Socket.prototype, "write").mockImplementation(function (this: net.Socket, ...args: Parameters<net.Socket["write"]>) {
      const [chunk] = args;
      const text = typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("latin1");
      if (responseSocket === null && text.startsWith("HTTP/1.1 200") && text.includes("text/event-stream")) responseSocket = this;
      if (this === responseSocket) writes.push({ text, corked: this.writableCorked });
      return write.apply(this, args);
    });
    const uncork = net.Socket.prototype.uncork;
    vi.spyOn(net.Socket.prototype, "uncork").mockImplementation(function (this: net.Socket) {
      if (this === responseSocket && this.writableCorked === 1) writes.push({ text: "(released: buffered writes sent)", corked: 1 });
      return uncork.apply(this);
    });

    const response = await server.request(`/threads/${thread.thread_id}/runs/stream`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "echo", input: { messages: [{ role: "user", content: "hi" }] }, stream_mode: ["values"] }),
    });
    const body = await response.text();
    vi.restoreAllMocks();

    expect(response.status).toBe(200);
    expect(body.startsWith("event: metadata\n")).toBe(true);
    const metadataWrite = writes.findIndex((written) => written.text.includes("event: metadata"));
    expect(metadataWrite).toBeGreaterThan(0);
    // From the status line to the event: every write buffered on the corked socket, none sent before the event's.
    const firstBytes = writes.slice(0, metadataWrite + 1);
    expect(firstBytes.filter((written) => written.corked === 0 || written.text.startsWith("(released")).map((written) => written.text.slice(0, 40))).toEqual([]);
  });
});
