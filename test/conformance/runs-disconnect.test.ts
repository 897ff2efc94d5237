import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

/**
 * What happens to a run when its client goes away mid-stream: `on_disconnect: "cancel"` on a
 * streamed run and `cancel_on_disconnect=true` on join and join-stream cancel it; the default
 * (`continue`) lets it finish. A real HTTP client opens the stream and drops the connection.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

// Long enough that a run still at its first step when the client leaves cannot have finished by
// the time its cancellation lands, however loaded the machine (3 steps: 15 s when not cancelled).
const SLOW_STEP_MS = 5_000;
// Short enough that a run the client left runs to its end within the test.
const QUICK_STEP_MS = 300;

const human = (content: string) => ({ messages: [{ role: "user", content }] });
const contents = (values: unknown) => ((values as { messages?: Array<{ content: string }> }).messages ?? []).map((m) => m.content);

/** Reads a stream until `until` matches all it has read; returns that text and the reader. */
async function readUntil(body: ReadableStream<Uint8Array>, until: RegExp): Promise<{ text: string; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!until.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before ${until} (read: ${text})`);
    text += decoder.decode(value, { stream: true });
  }
  return { text, reader };
}

/** The rest of a stream, to its end, after `text` already read. */
async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>, text: string): Promise<string> {
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
  }
}

/**
 * Opens a request whose answer is an SSE stream and reads it until `until` matches the text so
 * far, then (after `beforeLeaving`, given the answer's headers) drops the connection. Returns
 * what was read and the answer's headers.
 */
async function readThenDisconnect(
  pathname: string,
  init: RequestInit,
  until: RegExp,
  beforeLeaving?: (headers: Headers) => Promise<void>,
): Promise<{ text: string; headers: Headers }> {
  const abort = new AbortController();
  const response = await server.request(pathname, { ...init, signal: abort.signal });
  expect(response.status).toBe(200);
  const { text } = await readUntil(response.body!, until);
  await beforeLeaving?.(response.headers);
  abort.abort();
  return { text, headers: response.headers };
}

/** Opens a request and drops the connection once the server has started answering it (headers or not). */
async function requestThenDisconnect(pathname: string, whenStarted: () => Promise<void>): Promise<void> {
  const abort = new AbortController();
  const answered = server.request(pathname, { signal: abort.signal }).catch((error: unknown) => error);
  await whenStarted();
  abort.abort();
  expect(await answered).toBeInstanceOf(Error);
}

const postJson = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

/** The run's final status once it has ended (join waits for that). */
async function finalRun(threadId: string, runId: string) {
  await server.client.runs.join(threadId, runId);
  return server.client.runs.get(threadId, runId);
}

describe("client disconnects", () => {
  it("on_disconnect: cancel on a thread's streamed run cancels it when the client leaves", async () => {
    const thread = await server.client.threads.create();
    const { headers } = await readThenDisconnect(
      `/threads/${thread.thread_id}/runs/stream`,
      postJson({ assistant_id: "slow", input: human("go"), context: { step_ms: SLOW_STEP_MS }, on_disconnect: "cancel" }),
      /event: metadata/,
    );
    const runId = headers.get("content-location")!.split("/").pop()!;
    const run = await finalRun(thread.thread_id, runId);
    expect(run.status).toBe("interrupted");
    expect(contents((await server.client.threads.getState(thread.thread_id)).values)).not.toContain("third done");
  });

  it("the default (continue) lets a thread's streamed run finish after the client leaves", async () => {
    const thread = await server.client.threads.create();
    const { headers } = await readThenDisconnect(
      `/threads/${thread.thread_id}/runs/stream`,
      postJson({ assistant_id: "slow", input: human("go"), context: { step_ms: QUICK_STEP_MS } }),
      /event: metadata/,
    );
    const runId = headers.get("content-location")!.split("/").pop()!;
    expect((await finalRun(thread.thread_id, runId)).status).toBe("success");
    expect(contents((await server.client.threads.getState(thread.thread_id)).values)).toEqual(["go", "first done", "second done", "third done"]);
  });

  it("on_disconnect: cancel on a stateless streamed run cancels it; continue lets it finish", async () => {
    for (const [onDisconnect, stepMs, reachesEnd] of [
      ["cancel", SLOW_STEP_MS, false],
      ["continue", QUICK_STEP_MS, true],
    ] as const) {
      // A stateless run's thread is its own and goes when the run ends, so how far the run got is
      // read from a join of its stream opened before the client leaves (replayed, then live until
      // the run ends). One opened after could come once a cancelled run's thread was gone: a CI
      // run read an empty stream.
      let joined: Promise<string> | undefined;
      await readThenDisconnect(
        "/runs/stream",
        postJson({ assistant_id: "slow", input: human("go"), context: { step_ms: stepMs }, on_disconnect: onDisconnect }),
        /event: metadata/,
        async (headers) => {
          const response = await server.request(`${headers.get("content-location")!}/stream?stream_mode=values`);
          expect(response.status).toBe(200);
          const { text, reader } = await readUntil(response.body!, /"content":"go"/);
          joined = readToEnd(reader, text);
        },
      );
      const text = await joined!;
      expect(text).toContain('"content":"go"');
      expect(text.includes("third done")).toBe(reachesEnd);
    }
  });

  it("join-stream with cancel_on_disconnect=true cancels the run when the client leaves", async () => {
    const thread = await server.client.threads.create();
    const run = await server.client.runs.create(thread.thread_id, "slow", { input: human("go"), context: { step_ms: SLOW_STEP_MS } });
    await readThenDisconnect(`/threads/${thread.thread_id}/runs/${run.run_id}/stream?cancel_on_disconnect=true`, { method: "GET" }, /event: metadata/);
    expect((await finalRun(thread.thread_id, run.run_id)).status).toBe("interrupted");
  });

  it("join-stream without cancel_on_disconnect leaves the run running", async () => {
    const thread = await server.client.threads.create();
    const run = await server.client.runs.create(thread.thread_id, "slow", { input: human("go"), context: { step_ms: QUICK_STEP_MS } });
    await readThenDisconnect(`/threads/${thread.thread_id}/runs/${run.run_id}/stream`, { method: "GET" }, /event: metadata/);
    expect((await finalRun(thread.thread_id, run.run_id)).status).toBe("success");
  });

  it("join with cancel_on_disconnect=true cancels the run when the client leaves; without, it finishes", async () => {
    for (const [query, stepMs, expected] of [
      ["?cancel_on_disconnect=true", SLOW_STEP_MS, "interrupted"],
      ["", QUICK_STEP_MS, "success"],
    ] as const) {
      const thread = await server.client.threads.create();
      const run = await server.client.runs.create(thread.thread_id, "slow", { input: human("go"), context: { step_ms: stepMs } });
      // The join only answers when the run ends: the client leaves once the run is under way.
      await requestThenDisconnect(`/threads/${thread.thread_id}/runs/${run.run_id}/join${query}`, async () => {
        await untilRunning(thread.thread_id, run.run_id);
      });
      expect((await finalRun(thread.thread_id, run.run_id)).status).toBe(expected);
    }
  });
});

/** Waits (on the run's own stream) until the worker has started the run. */
async function untilRunning(threadId: string, runId: string): Promise<void> {
  const stop = new AbortController();
  try {
    for await (const part of server.client.runs.joinStream(threadId, runId, { signal: stop.signal })) {
      if (part.event === "metadata") return;
    }
  } finally {
    stop.abort();
  }
}
