import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";
import { signUserToken } from "../helpers/user-tokens.js";

// langgraph.json http.app: the deployment's Hono app (test/fixtures/http/app.ts) in front of
// Hangar's routes, as LangGraph's server mounts it.
const fixtures = path.dirname(FIXTURE_DEPLOYMENT);
const HTTP_DEPLOYMENT = path.join(fixtures, "http/langgraph.json");
const HTTP_AUTH_DEPLOYMENT = path.join(fixtures, "http/auth.langgraph.json");

describe("custom routes", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ configPath: HTTP_DEPLOYMENT });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("serves the app's routes, its errors, and 404 for what neither serves", async () => {
    const hello = await fetch(`${server.url}/custom/hello`, { headers: { "x-name": "hangar" } });
    expect(hello.status).toBe(200);
    expect(await hello.json()).toEqual({ hello: "hangar" });
    expect(hello.headers.get("x-custom-middleware")).toBe("yes");
    // The app's HTTPException is its answer (its hono is the server's own copy, so Hangar's error
    // handler sees it), not a masked 500.
    const refused = await fetch(`${server.url}/custom/error`);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toBe("custom refusal");
    const missing = await fetch(`${server.url}/custom/nothing`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: "No route for GET /custom/nothing" });
  });

  it("runs the app's middleware for Hangar's routes too: it answers first, tags responses, rewrites a body", async () => {
    const info = await fetch(`${server.url}/info`);
    expect(info.headers.get("x-custom-middleware")).toBe("yes");
    expect(await (await fetch(`${server.url}/info?intercept`)).json()).toEqual({ intercepted: true });

    const client = new Client({ apiUrl: server.url, defaultHeaders: { "x-shout": "1" } });
    const thread = await client.threads.create();
    const values = await client.runs.wait(thread.thread_id, "echo", { input: { messages: [{ role: "user", content: "quiet" }] } });
    expect(values).toMatchObject({ messages: [{ content: "QUIET" }, { content: "echo: QUIET" }] });
  });

  it("delivers a webhook given as a path of this server to the custom route", async () => {
    const thread = await server.client.threads.create();
    const values = await server.client.runs.wait(thread.thread_id, "echo", {
      input: { messages: [{ role: "user", content: "hook" }] },
      webhook: "/custom/hook",
    });
    expect(values).toMatchObject({ messages: [{ content: "hook" }, { content: "echo: hook" }] });
    await expect
      .poll(async () => ((await (await fetch(`${server.url}/custom/hook`)).json()) as { lastWebhook: unknown }).lastWebhook, {
        timeout: 5_000,
      })
      .toMatchObject({ thread_id: thread.thread_id, status: "success" });
  });

  it("passes x-* request headers (and user-agent) to runs in config.configurable, never credentials", async () => {
    const client = new Client({
      apiUrl: server.url,
      defaultHeaders: { "x-tenant": "acme", "x-service-key": "secret", "user-agent": "hangar-test" },
    });
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "echo", {
      input: { messages: [] },
      config: { configurable: { "x-tenant": "from-body", model: "m" } },
    });
    const configurable = (run as unknown as { kwargs: { config: { configurable: Record<string, unknown> } } }).kwargs.config.configurable;
    expect(configurable).toMatchObject({ "x-tenant": "acme", "user-agent": "hangar-test", model: "m" });
    expect(configurable).not.toHaveProperty("x-service-key");
  });

  it("lets an SDK client without apiUrl reach this server in-process", async () => {
    const { threadId } = (await (await fetch(`${server.url}/custom/threads`)).json()) as { threadId: string };
    expect((await server.client.threads.get(threadId)).metadata).toEqual({ via: "loopback" });
  });
});

describe("custom routes with custom auth", () => {
  it("authenticates custom routes like Hangar's with enable_custom_route_auth", async () => {
    const server = await startTestServer({ configPath: HTTP_AUTH_DEPLOYMENT });
    try {
      expect((await fetch(`${server.url}/custom/hello`)).status).toBe(401);
      expect((await fetch(`${server.url}/info`)).status).toBe(200);
      const token = await signUserToken("alice");
      const hello = await fetch(`${server.url}/custom/hello`, { headers: { authorization: `Bearer ${token}` } });
      expect(await hello.json()).toEqual({ hello: "world" });
    } finally {
      await server.close();
    }
  });
});
