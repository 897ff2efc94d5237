import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@langchain/langgraph-sdk";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { mcpTransport } from "../helpers/mcp-transport.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

/**
 * langgraph.json `http.mount_prefix` ("/api", test/fixtures/mount-prefix): every route under it
 * (the SDK, GraphQL over HTTP and graphql-ws, the protocol WebSocket, MCP, A2A, the deployment's
 * own routes and the SDK's in-process loopback), 404 outside it, and a bad prefix refuses start.
 * The console under the prefix: test/console/mount-prefix.e2e.test.ts.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, "../fixtures");
const API_KEY = "prefix-key";
const PREFIX = "/api";

let server: TestServer;
let api: string;
let client: Client;

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [API_KEY], configPath: path.join(fixtures, "mount-prefix/langgraph.json") });
  api = `${server.url}${PREFIX}`;
  client = new Client({ apiUrl: api, apiKey: API_KEY, callerOptions: { maxRetries: 0 } });
});
afterAll(async () => {
  await server?.close();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });
const withKey = (url: string, init: RequestInit = {}) => fetch(url, { ...init, headers: { "x-api-key": API_KEY, ...init.headers } });

describe("http.mount_prefix", () => {
  it("serves the REST API to the official SDK under the prefix: assistants, threads, a streamed run and a joined one", async () => {
    const assistant = await client.assistants.create({ graphId: "echo", name: "prefixed" });
    expect((await client.assistants.get(assistant.assistant_id)).name).toBe("prefixed");
    const thread = await client.threads.create();
    const chunks = [];
    for await (const chunk of client.runs.stream(thread.thread_id, assistant.assistant_id, { input: human("streamed"), streamMode: "values" })) chunks.push(chunk);
    expect(chunks.at(-1)).toMatchObject({ event: "values", data: { messages: [{ content: "streamed" }, { content: "echo: streamed" }] } });

    const run = await client.runs.create(thread.thread_id, "echo", { input: human("joined") });
    expect(await client.runs.join(thread.thread_id, run.run_id)).toMatchObject({ messages: expect.arrayContaining([{ role: "assistant", content: "echo: joined" }]) });
    expect((await client.threads.getState(thread.thread_id)).values).toMatchObject({ messages: expect.arrayContaining([{ role: "assistant", content: "echo: joined" }]) });

    // The links Hangar writes into answers name the prefix too.
    const created = await withKey(`${api}/threads/${thread.thread_id}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "echo", input: human("located") }),
    });
    expect(created.status).toBe(200);
    const { run_id } = (await created.json()) as { run_id: string };
    expect(created.headers.get("content-location")).toBe(`${PREFIX}/threads/${thread.thread_id}/runs/${run_id}`);
    await client.runs.join(thread.thread_id, run_id);
  });

  it("serves GraphQL under the prefix over HTTP and graphql-ws", async () => {
    const overHttp = await withKey(`${api}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ assistants(graphId: \"echo\") { edges { node { graphId } } } }" }),
    });
    expect(overHttp.status).toBe(200);
    expect(await overHttp.json()).toMatchObject({ data: { assistants: { edges: expect.arrayContaining([{ node: { graphId: "echo" } }]) } } });

    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "echo", { input: human("subscribed") });
    const ws = createClient({ url: `${api.replace(/^http/, "ws")}/graphql`, webSocketImpl: WebSocket, connectionParams: { "x-api-key": API_KEY }, retryAttempts: 0, lazy: true });
    try {
      const events: Array<{ event: string }> = [];
      for await (const result of ws.iterate<{ runEvents: { event: string } }>({ query: `subscription { runEvents(runId: "${run.run_id}") { event } }` })) {
        expect(result.errors).toBeUndefined();
        events.push(result.data!.runEvents);
      }
      expect(events.map((event) => event.event)).toContain("values");
    } finally {
      await ws.dispose();
    }
  });

  it("serves the protocol v2 WebSocket under the prefix", async () => {
    const thread = new Client({ apiUrl: api, callerOptions: { maxRetries: 0 } }).threads.stream({
      assistantId: "echo",
      transport: "websocket",
      webSocketFactory: (url: string) => new WebSocket(url, { headers: { "x-api-key": API_KEY } }) as never,
    });
    try {
      await thread.run.start({ input: human("over the socket") });
      expect(JSON.stringify(await thread.output)).toContain("echo: over the socket");
    } finally {
      await thread.close();
    }
    // Without the prefix, the upgrade is not this server's.
    const outside = new WebSocket(`${server.url.replace(/^http/, "ws")}/threads/${thread.threadId}/stream/events`, { headers: { "x-api-key": API_KEY } });
    await expect(new Promise((resolve, reject) => outside.once("open", resolve).once("error", reject))).rejects.toThrow();
  });

  it("serves /ok, /info, /metrics, MCP and A2A under the prefix, with the A2A card's URL under it", async () => {
    expect(await (await fetch(`${api}/ok`)).json()).toEqual({ ok: true });
    expect((await fetch(`${api}/info`)).status).toBe(200);
    expect(await (await withKey(`${api}/metrics`)).text()).toContain("hangar_");

    const card = (await (await withKey(`${api}/a2a/echo/.well-known/agent-card.json`)).json()) as { url: string };
    expect(card.url).toMatch(new RegExp(`^${api}/a2a/[0-9a-f-]{36}$`));

    const { transport } = mcpTransport(new URL(`${api}/mcp`), { "x-api-key": API_KEY });
    const mcp = new McpClient({ name: "mount-prefix-test", version: "1.0.0" });
    try {
      await mcp.connect(transport);
      expect((await mcp.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await mcp.close();
    }
  });

  it("serves the deployment's own routes under the prefix, and its SDK loopback reaches the server", async () => {
    expect(await (await fetch(`${api}/custom/hello`)).json()).toEqual({ hello: "world", path: "/custom/hello" });
    const redirect = await fetch(`${api}/custom/elsewhere`, { redirect: "manual" });
    expect(redirect.headers.get("location")).toBe(`${PREFIX}/custom/hello`);
    const { threadId } = (await (await withKey(`${api}/custom/threads`)).json()) as { threadId: string };
    expect((await client.threads.get(threadId)).metadata).toEqual({ via: "loopback" });
  });

  it("delivers a webhook given as a path of this server, with or without the prefix, to the deployment's route", async () => {
    for (const webhook of ["/custom/hook", `${PREFIX}/custom/hook`]) {
      const thread = await client.threads.create();
      await client.runs.wait(thread.thread_id, "echo", { input: human(webhook), webhook });
      await expect
        .poll(async () => ((await (await fetch(`${api}/custom/hook`)).json()) as { lastWebhook: unknown }).lastWebhook, { timeout: 5_000 })
        .toMatchObject({ thread_id: thread.thread_id, status: "success" });
    }
  });

  it("answers 404 with a JSON body naming the prefix for any path outside it", async () => {
    for (const outside of ["/ok", "/threads/search", "/graphql", "/custom/hello", "/apiary/ok", "/console/"]) {
      const response = await withKey(`${server.url}${outside}`);
      expect(response.status, outside).toBe(404);
      expect(await response.json()).toEqual({ detail: `No route for GET ${outside}: this server's routes are under /api` });
    }
  });
});

describe("http.mount_prefix and http.middleware_order validation", () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), "hangar-http-keys-"));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  async function deploymentWith(name: string, http: Record<string, unknown>): Promise<string> {
    const configPath = path.join(directory, `${name}.langgraph.json`);
    const graph = path.join(fixtures, "graphs/echo.ts");
    await writeFile(configPath, JSON.stringify({ graphs: { echo: `${graph}:graph` }, http }));
    return configPath;
  }

  it("refuses to start on a prefix that is not a path with a leading / and no trailing /", async () => {
    for (const [name, prefix] of [["relative", "api"], ["trailing", "/api/"], ["root", "/"], ["spaced", "/my api"], ["number", 42]] as const) {
      const configPath = await deploymentWith(name, { mount_prefix: prefix });
      await expect(startTestServer({ configPath }), name).rejects.toThrow(
        `Invalid deployment config ${configPath}: http.mount_prefix: ${typeof prefix === "number" ? "Invalid input: expected string" : 'must be a path such as "/api"'}`,
      );
    }
  });

  it("refuses to start on a middleware_order other than auth_first or middleware_first, and on middleware_first with enable_custom_route_auth", async () => {
    const unknown = await deploymentWith("unknown-order", { middleware_order: "later" });
    await expect(startTestServer({ configPath: unknown })).rejects.toThrow(
      `Invalid deployment config ${unknown}: http.middleware_order: must be "middleware_first" (the default) or "auth_first"`,
    );
    const contradictory = await deploymentWith("contradictory", {
      app: path.join(fixtures, "mount-prefix/app.ts:app"),
      middleware_order: "middleware_first",
      enable_custom_route_auth: true,
    });
    await expect(startTestServer({ configPath: contradictory })).rejects.toThrow(/http.middleware_order "middleware_first" cannot hold with http.enable_custom_route_auth/);
  });
});
