import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

const LIMIT = 1024;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ maxBodyBytes: LIMIT });
});

afterAll(async () => {
  await server?.close();
});

/** ~2 KB of valid JSON, so only its size can be the reason for a refusal. */
const bigBody = JSON.stringify({ graph_id: "echo", metadata: { padding: "x".repeat(2 * LIMIT) } });

/** The same bytes as a stream: fetch then sends them chunked, without a content-length. */
function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let at = 0; at < bytes.length; at += 256) controller.enqueue(bytes.slice(at, at + 256));
      controller.close();
    },
  });
}

async function expectTooLarge(response: Response): Promise<void> {
  expect(response.status).toBe(413);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await response.json()) as { detail: string };
  expect(body.detail).toMatch(new RegExp(`${LIMIT} bytes`));
}

async function counts(): Promise<[number, number]> {
  return [await server.client.assistants.count(), await server.client.threads.count()];
}

describe("request body limit", () => {
  it("refuses a body over the limit announced by content-length", async () => {
    const before = await counts();
    for (const path of ["/assistants", "/threads"]) {
      const response = await server.request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: bigBody,
      });
      await expectTooLarge(response);
    }
    expect(await counts()).toEqual(before);
  });

  it("refuses a chunked body over the limit (no content-length)", async () => {
    const before = await counts();
    for (const path of ["/assistants", "/threads", "/assistants/search"]) {
      const response = await server.request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: chunked(bigBody),
        duplex: "half",
      } as RequestInit);
      await expectTooLarge(response);
    }
    expect(await counts()).toEqual(before);
  });

  it("accepts bodies under the limit", async () => {
    const assistant = await server.client.assistants.create({ graphId: "echo", metadata: { small: true } });
    expect(assistant.metadata).toEqual({ small: true });
    const response = await server.request("/threads", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chunked(JSON.stringify({ metadata: { small: true } })),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(200);
  });
});
