import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@langchain/langgraph-sdk";
import type { Browser, Page } from "playwright-core";
import { build, type Rollup } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../console/browser-helpers.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

/**
 * Browsers on another origin: a page served from its own port runs the official SDK client (bundled
 * for the browser) in headless Chromium against Hangar with an API key, through every method the
 * API uses. Preflight answers are also checked on the wire.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const ECHO_GRAPH = path.resolve(here, "../fixtures/graphs/echo.ts:graph");
const API_KEY = "browser-test-key";

/** A page server: `/` is an empty page that loads the SDK bundle, `/sdk.js` the bundle. */
async function startPageServer(sdkBundle: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    if (request.url === "/sdk.js") {
      response.writeHead(200, { "content-type": "text/javascript" }).end(sdkBundle);
    } else {
      response.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><title>cross-origin client</title><script type="module" src="/sdk.js"></script>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The SDK's browser build, as a page would ship it (one ES module, no Node built-ins). */
async function bundleSdkForBrowser(): Promise<string> {
  const output = (await build({
    configFile: false,
    logLevel: "warn",
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    build: {
      lib: { entry: path.join(here, "cors-page/sdk-entry.ts"), formats: ["es"], fileName: "sdk" },
      write: false,
      minify: false,
    },
  })) as Rollup.RollupOutput[];
  return output[0].output[0].code;
}

let browser: Browser;
let pageA: { origin: string; close: () => Promise<void> };
let pageB: { origin: string; close: () => Promise<void> };
/** No `http.cors`: the defaults. */
let openServer: TestServer;
/** `http.cors.allow_origins` lists page A only; every other key unset. */
let restrictedServer: TestServer;
let configDir: string;

beforeAll(async () => {
  browser = await launchChromium();
  const sdkBundle = await bundleSdkForBrowser();
  pageA = await startPageServer(sdkBundle);
  pageB = await startPageServer(sdkBundle);
  configDir = mkdtempSync(path.join(os.tmpdir(), "hangar-cors-"));
  const restrictedConfig = path.join(configDir, "langgraph.json");
  writeFileSync(restrictedConfig, JSON.stringify({ graphs: { echo: ECHO_GRAPH }, http: { cors: { allow_origins: [pageA.origin] } } }));
  const openConfig = path.join(configDir, "open.langgraph.json");
  writeFileSync(openConfig, JSON.stringify({ graphs: { echo: ECHO_GRAPH } }));
  [openServer, restrictedServer] = await Promise.all([
    startTestServer({ apiKeys: [API_KEY], configPath: openConfig }),
    startTestServer({ apiKeys: [API_KEY], configPath: restrictedConfig }),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([openServer?.close(), restrictedServer?.close(), pageA?.close(), pageB?.close()]);
  if (configDir) rmSync(configDir, { recursive: true, force: true });
});

async function openPage(origin: string): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(origin);
  await page.waitForFunction(() => "LangGraphClient" in window);
  return page;
}

type BrowserWindow = Window & { LangGraphClient: typeof Client };

function preflight(server: TestServer, pathname: string, origin: string, method: string, headers: string): Promise<Response> {
  return fetch(`${server.url}${pathname}`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": method, "access-control-request-headers": headers },
  });
}

const API_REQUEST_HEADERS = "authorization,x-api-key,content-type,last-event-id,x-tenant-plan";

describe("CORS preflights", () => {
  it("without http.cors allow every method and the request headers the API uses, and expose what the SDK reads", async () => {
    const answer = await preflight(openServer, "/threads/any", "http://chat.example", "DELETE", API_REQUEST_HEADERS);
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.headers.get("access-control-allow-methods")?.split(",")).toEqual(
      expect.arrayContaining(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]),
    );
    expect(answer.headers.get("access-control-allow-headers")?.split(",")).toEqual(API_REQUEST_HEADERS.split(","));
    const exposed = (await openServer.request("/ok", { headers: { origin: "http://chat.example" } })).headers.get("access-control-expose-headers");
    expect(exposed?.split(",")).toEqual(expect.arrayContaining(["Content-Location", "Location", "X-Pagination-Next", "Mcp-Session-Id"]));
  });

  it("with http.cors, the keys it leaves out keep their defaults", async () => {
    const answer = await preflight(restrictedServer, "/store/items", pageA.origin, "PUT", API_REQUEST_HEADERS);
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe(pageA.origin);
    expect(answer.headers.get("access-control-allow-methods")?.split(",")).toEqual(expect.arrayContaining(["PUT", "PATCH", "DELETE"]));
    expect(answer.headers.get("access-control-allow-headers")?.split(",")).toEqual(API_REQUEST_HEADERS.split(","));
  });

  it("a preflight from an origin allow_origins does not list gets 403 and no allow headers", async () => {
    const answer = await preflight(restrictedServer, "/threads/any", pageB.origin, "DELETE", API_REQUEST_HEADERS);
    expect(answer.status).toBe(403);
    expect(await answer.json()).toEqual({ detail: `origin ${pageB.origin} is not allowed by this deployment's http.cors.allow_origins` });
    const corsHeaders = [...answer.headers.keys()].filter((name) => name.startsWith("access-control-"));
    expect(corsHeaders).toEqual([]);
  });
});

describe("a page on another origin in Chromium", () => {
  it("calls every method through the SDK with an API key: threads, PATCH, runs and their SSE streams, the store, deletes", async () => {
    const page = await openPage(pageA.origin);
    try {
      const seen = await page.evaluate(
        async ({ apiUrl, apiKey }) => {
          const client = new (window as unknown as BrowserWindow).LangGraphClient({ apiUrl, apiKey, callerOptions: { maxRetries: 0 } });
          await client.assistants.create({ graphId: "echo", name: "first" });
          await client.assistants.create({ graphId: "echo", name: "second" });
          const page = await client.assistants.search({ graphId: "echo", limit: 1, includePagination: true });

          const thread = await client.threads.create({ metadata: { from: "browser" } });
          const patched = await client.threads.update(thread.thread_id, { metadata: { patched: true } });
          let createdRunId: string | undefined;
          const streamed: Array<{ event: string; data: unknown }> = [];
          for await (const part of client.runs.stream(thread.thread_id, "echo", {
            input: { messages: [{ role: "user", content: "hello from a browser" }] },
            streamMode: "values",
            onRunCreated: ({ run_id }) => {
              createdRunId = run_id;
            },
          })) {
            streamed.push({ event: part.event, data: part.data });
          }
          // Last-Event-ID 0: the replay starts after the run's first event (its metadata).
          const replayed: string[] = [];
          for await (const part of client.runs.joinStream(thread.thread_id, createdRunId!, { lastEventId: "0", streamMode: "values" })) {
            replayed.push(part.event);
          }
          const bearer = await fetch(`${apiUrl}/threads/${thread.thread_id}`, { headers: { authorization: `Bearer ${apiKey}` } });

          await client.store.putItem(["browser", "notes"], "first", { text: "kept" });
          const item = await client.store.getItem(["browser", "notes"], "first");
          await client.store.deleteItem(["browser", "notes"], "first");
          const itemAfterDelete = await client.store.getItem(["browser", "notes"], "first");

          await client.threads.delete(thread.thread_id);
          const afterDelete = await client.threads.get(thread.thread_id).then(
            () => "still there",
            (error: Error) => error.message,
          );
          return {
            paginationNext: page.next,
            patchedMetadata: patched.metadata,
            createdRunId,
            streamed,
            replayed,
            bearerStatus: bearer.status,
            item: item?.value,
            itemAfterDelete,
            threadId: thread.thread_id,
            afterDelete,
          };
        },
        { apiUrl: openServer.url, apiKey: API_KEY },
      );
      expect(seen.paginationNext).toBe("1");
      expect(seen.patchedMetadata).toMatchObject({ from: "browser", patched: true });
      expect(seen.createdRunId).toMatch(/^[0-9a-f-]{36}$/);
      expect(seen.streamed.map((part) => part.event)).toEqual(["metadata", "values", "values"]);
      expect(JSON.stringify(seen.streamed.at(-1)?.data)).toContain("echo: hello from a browser");
      expect(seen.replayed).toEqual(["values", "values"]);
      expect(seen.bearerStatus).toBe(200);
      expect(seen.item).toEqual({ text: "kept" });
      expect(seen.itemAfterDelete).toBeNull();
      expect(seen.afterDelete).toMatch(/404/);
      // What the page did is what the server holds.
      await expect(openServer.client.threads.get(seen.threadId)).rejects.toThrow(/404/);
      expect((await openServer.client.runs.list(seen.threadId).catch((error: Error) => error.message)) as unknown).toMatch(/404/);
    } finally {
      await page.close();
    }
  });

  it("with http.cors.allow_origins: the listed origin deletes and patches; another origin's delete never reaches the thread", async () => {
    const allowed = await openPage(pageA.origin);
    const other = await openPage(pageB.origin);
    try {
      const allowedResult = await allowed.evaluate(
        async ({ apiUrl, apiKey }) => {
          const client = new (window as unknown as BrowserWindow).LangGraphClient({ apiUrl, apiKey, callerOptions: { maxRetries: 0 } });
          const thread = await client.threads.create();
          const patched = await client.threads.update(thread.thread_id, { metadata: { patched: true } });
          await client.threads.delete(thread.thread_id);
          return { threadId: thread.thread_id, patched: patched.metadata };
        },
        { apiUrl: restrictedServer.url, apiKey: API_KEY },
      );
      expect(allowedResult.patched).toMatchObject({ patched: true });
      await expect(restrictedServer.client.threads.get(allowedResult.threadId)).rejects.toThrow(/404/);

      const target = await restrictedServer.client.threads.create({ metadata: { owner: "server" } });
      const refused = await other.evaluate(
        async ({ apiUrl, apiKey, threadId }) => {
          const client = new (window as unknown as BrowserWindow).LangGraphClient({ apiUrl, apiKey, callerOptions: { maxRetries: 0 } });
          return client.threads.delete(threadId).then(
            () => "deleted",
            (error: Error) => error.message,
          );
        },
        { apiUrl: restrictedServer.url, apiKey: API_KEY, threadId: target.thread_id },
      );
      expect(refused).toMatch(/Failed to fetch/);
      expect((await restrictedServer.client.threads.get(target.thread_id)).metadata).toMatchObject({ owner: "server" });
    } finally {
      await allowed.close();
      await other.close();
    }
  });
});
