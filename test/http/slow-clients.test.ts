import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Slow clients: a connection that trickles its request a byte at a time is closed by the header
// deadline (headers) or the request deadline (body), while a response that streams for longer
// than both (SSE) is untouched. Deadlines are short here; the defaults are 10 s and 60 s.
const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 2_000;
/** How long a trickling client would keep going if nothing closed it. */
const TRICKLE_LIMIT_MS = 20_000;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    env: { HANGAR_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), HANGAR_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) },
  });
});
afterAll(async () => {
  await server?.close();
});

interface Trickle {
  /** Resolves when the server closed the connection: after how long, and what it answered. */
  closed: Promise<{ afterMs: number; answer: string }>;
}

/** Opens a connection, writes `head` at once, then one byte of `drip` every 100 ms. */
function trickle(head: string, drip: string): Trickle {
  const { port } = new URL(server.url);
  const socket = net.connect(Number(port), "127.0.0.1");
  const started = Date.now();
  let answer = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => (answer += chunk));
  socket.on("error", () => undefined);
  socket.write(head);
  let sent = 0;
  const timer = setInterval(() => {
    if (Date.now() - started > TRICKLE_LIMIT_MS || socket.destroyed) {
      clearInterval(timer);
      socket.destroy();
      return;
    }
    socket.write(drip[sent++ % drip.length]!);
  }, 100);
  return {
    closed: new Promise((resolve) =>
      socket.on("close", () => {
        clearInterval(timer);
        resolve({ afterMs: Date.now() - started, answer });
      }),
    ),
  };
}

describe("slow clients", () => {
  it("closes connections trickling their headers at the header deadline, answering 408", async () => {
    const trickles = Array.from({ length: 50 }, () => trickle("GET /ok HTTP/1.1\r\nHost: localhost\r\nX-Slow: ", "abcdefgh"));
    const results = await Promise.all(trickles.map((entry) => entry.closed));
    for (const { afterMs, answer } of results) {
      expect(afterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
      // Well before the client would have stopped on its own.
      expect(afterMs).toBeLessThan(TRICKLE_LIMIT_MS / 2);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    }
  });

  it("closes connections trickling their body at the request deadline", async () => {
    const head = "POST /threads HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n";
    const results = await Promise.all(Array.from({ length: 20 }, () => trickle(head, '{"metadata": {"a": "bbbbbbbb')).map((entry) => entry.closed));
    for (const { afterMs, answer } of results) {
      expect(afterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
      expect(afterMs).toBeLessThan(TRICKLE_LIMIT_MS / 2);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    }
    // Nothing half-read was acted on.
    expect((await server.client.threads.search({ limit: 100 })).length).toBe(0);
  });

  it("leaves a response streaming longer than both deadlines open", async () => {
    const thread = await server.client.threads.create();
    const stream = await server.request(`/threads/${thread.thread_id}/stream`, { headers: { accept: "text/event-stream" } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    // A slow request started after the stream is closed by its deadline: both deadlines have passed.
    const late = await trickle("POST /threads HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n", "x").closed;
    expect(late.afterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    // The stream still delivers: a run on the thread shows up on it.
    await server.client.runs.wait(thread.thread_id, "echo", { input: { messages: [{ role: "user", content: "still there?" }] } });
    let received = "";
    while (!received.includes("still there?")) {
      const { value, done } = await reader.read();
      expect(done).toBe(false);
      received += new TextDecoder().decode(value);
    }
    await reader.cancel();
  });
});
