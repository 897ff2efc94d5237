import { randomUUID } from "node:crypto";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../console/browser-helpers.js";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";
import { signUserToken } from "../helpers/user-tokens.js";

// Protocol v2 WebSockets opened the way a browser must: with the WHATWG WebSocket (Node 22's
// global one, which like a browser's cannot send headers), the credential offered as a
// subprotocol (README: browser WebSockets). The SDK's own WebSocket transport runs on it through
// its webSocketFactory, as a page would. A refused credential closes the socket with 4401 and
// the reason, which a browser can read (it cannot read a refused upgrade's status).

const API_KEY = "browser-auth-key";
const APP_PROTOCOL = "langgraph-protocol";
const fixtures = path.dirname(FIXTURE_DEPLOYMENT);
const human = (content: string) => ({ messages: [{ role: "user", content }] });

/** What a page would compute: the credential as a subprotocol name (base64url, as btoa gives it). */
const base64url = (text: string) => btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
const bearerProtocol = (token: string) => `hangar-auth.bearer.${base64url(token)}`;
const apiKeyProtocol = (key: string) => `hangar-auth.api-key.${base64url(key)}`;

function streamUrl(server: TestServer, threadId: string): string {
  return `${server.url.replace("http", "ws")}/threads/${threadId}/stream/events`;
}

/** A browser-API WebSocket's close, once it ends (after opening or not). */
function closeOf(socket: WebSocket): Promise<{ code: number; reason: string; opened: boolean }> {
  let opened = false;
  socket.addEventListener("open", () => (opened = true));
  return new Promise((resolve) => socket.addEventListener("close", (event) => resolve({ code: event.code, reason: event.reason, opened })));
}

/** One command over a browser-API WebSocket and its response. */
async function command(socket: WebSocket, frame: { id: number; method: string; params: unknown }): Promise<Record<string, unknown>> {
  if (socket.readyState !== WebSocket.OPEN) await new Promise((resolve) => socket.addEventListener("open", resolve, { once: true }));
  const answer = new Promise<Record<string, unknown>>((resolve) =>
    socket.addEventListener("message", function onMessage(event) {
      const message = JSON.parse(String(event.data)) as Record<string, unknown>;
      if (message.id !== frame.id) return;
      socket.removeEventListener("message", onMessage);
      resolve(message);
    }),
  );
  socket.send(JSON.stringify(frame));
  return answer;
}

/** The SDK's threads.stream over its WebSocket transport, on browser WebSockets offering `protocols`. */
async function streamWithSdk(server: TestServer, assistantId: string, protocols: string[]) {
  const client = new Client({ apiUrl: server.url, apiKey: null, callerOptions: { maxRetries: 0 } });
  const sockets: WebSocket[] = [];
  const thread = client.threads.stream({
    assistantId,
    transport: "websocket",
    webSocketFactory: (url: string) => {
      const socket = new WebSocket(url, protocols);
      sockets.push(socket);
      return socket as never;
    },
  });
  try {
    await thread.run.start({ input: human("who am i?") });
    return { output: JSON.stringify(await thread.output), threadId: thread.threadId, protocol: sockets[0]!.protocol };
  } finally {
    await thread.close();
  }
}

describe("browser WebSockets with API keys", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ apiKeys: [API_KEY] });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("accepts the key offered as a subprotocol and answers with the application's protocol", async () => {
    const { output, protocol } = await streamWithSdk(server, "echo", [APP_PROTOCOL, apiKeyProtocol(API_KEY)]);
    expect(output).toContain("echo: who am i?");
    expect(protocol).toBe(APP_PROTOCOL);
  });

  it("closes with 4401 naming the problem for a wrong key, and creates nothing", async () => {
    const threadId = randomUUID();
    const closed = await closeOf(new WebSocket(streamUrl(server, threadId), [APP_PROTOCOL, apiKeyProtocol("wrong")]));
    expect(closed).toMatchObject({ code: 4401, reason: expect.stringContaining("subprotocol hangar-auth.api-key."), opened: true });
    await expect(server.client.threads.get(threadId)).rejects.toMatchObject({ status: 404 });
  });

  it("closes with 4401 for a credential subprotocol it cannot read", async () => {
    for (const unreadable of ["hangar-auth.password.c2VjcmV0", "hangar-auth.api-key.", "hangar-auth.bearer"]) {
      const closed = await closeOf(new WebSocket(streamUrl(server, randomUUID()), [APP_PROTOCOL, unreadable]));
      expect(closed).toMatchObject({ code: 4401, opened: true });
    }
  });

  it("ends the SDK's stream with the 401 instead of reconnecting", async () => {
    await expect(streamWithSdk(server, "echo", [APP_PROTOCOL, apiKeyProtocol("wrong")])).rejects.toMatchObject({ status: 401 });
  });
});

describe("in Chromium", () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ apiKeys: [API_KEY] }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("runs a graph over a page's WebSocket with the key as a subprotocol; a wrong key is told by its close", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/ok`);
    const wsUrl = streamUrl(server, randomUUID());
    // Page code: everything below runs in the browser, with its own WebSocket and btoa.
    const seen = await page.evaluate(
      async ({ url, key, appProtocol }) => {
        const credential = (prefix: string, value: string) => prefix + btoa(value).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
        const socket = new WebSocket(url, [appProtocol, credential("hangar-auth.api-key.", key)]);
        const frames: Array<{ type: string; id?: number; method?: string; params?: { namespace: string[]; data: { event?: string } } }> = [];
        const done = new Promise<void>((resolve) =>
          socket.addEventListener("message", (event) => {
            const frame = JSON.parse(String(event.data));
            frames.push(frame);
            if (frame.method === "lifecycle" && frame.params.namespace.length === 0 && frame.params.data.event === "completed") resolve();
          }),
        );
        await new Promise((resolve) => socket.addEventListener("open", resolve, { once: true }));
        socket.send(JSON.stringify({ id: 1, method: "subscription.subscribe", params: { channels: ["values", "lifecycle"] } }));
        socket.send(JSON.stringify({ id: 2, method: "run.start", params: { assistant_id: "echo", input: { messages: [{ role: "user", content: "from a page" }] } } }));
        await done;
        socket.close();
        const wrong = new WebSocket(url, [appProtocol, credential("hangar-auth.api-key.", "wrong")]);
        const closed = await new Promise<CloseEvent>((resolve) => wrong.addEventListener("close", resolve));
        return { protocol: socket.protocol, frames, wrongClose: { code: closed.code, reason: closed.reason } };
      },
      { url: wsUrl, key: API_KEY, appProtocol: APP_PROTOCOL },
    );
    expect(seen.protocol).toBe(APP_PROTOCOL);
    expect(seen.frames.filter((frame) => frame.type !== "event").map((frame) => [frame.id, frame.type])).toEqual([
      [1, "success"],
      [2, "success"],
    ]);
    expect(JSON.stringify(seen.frames.filter((frame) => frame.method === "values").at(-1))).toContain("echo: from a page");
    expect(seen.wrongClose).toMatchObject({ code: 4401, reason: expect.stringContaining("hangar-auth.api-key.") });
    await page.close();
  });
});

describe("browser WebSockets with custom auth", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ configPath: path.join(fixtures, "auth.langgraph.json") });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("runs as the user whose bearer token is offered, and keeps other users' threads not found", async () => {
    const aliceToken = await signUserToken("alice");
    const { output, threadId } = await streamWithSdk(server, "whoami", [APP_PROTOCOL, bearerProtocol(aliceToken)]);
    expect(output).toContain("alice");

    const bob = new WebSocket(streamUrl(server, threadId), [APP_PROTOCOL, bearerProtocol(await signUserToken("bob"))]);
    const answer = await command(bob, { id: 1, method: "run.start", params: { assistant_id: "echo", input: human("theirs") } });
    expect(answer).toMatchObject({ type: "error", id: 1, error: "no_such_run" });
    bob.close();
    const alice = new Client({ apiUrl: server.url, defaultHeaders: { authorization: `Bearer ${aliceToken}` } });
    expect(await alice.runs.list(threadId)).toHaveLength(1);
  });

  it("closes with the handler's refusal for a forged token", async () => {
    const closed = await closeOf(new WebSocket(streamUrl(server, randomUUID()), [APP_PROTOCOL, bearerProtocol(`${(await signUserToken("mallory")).slice(0, -4)}AAAA`)]));
    // examples/auth/auth.ts's HTTPException(401, "Invalid or expired token"), as its close.
    expect(closed).toEqual({ code: 4401, reason: "Invalid or expired token", opened: true });
  });
});
