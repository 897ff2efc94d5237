import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { signUserToken } from "../helpers/user-tokens.js";

/**
 * langgraph.json `http.middleware_order`: the deployment's `http.app` middleware
 * (test/fixtures/mount-prefix/recording-app.ts) records whether authentication (the README's JWT
 * example) ran before it. `middleware_first` (LangGraph's default) runs it first; `auth_first`
 * runs it after authentication, so it sees the user and never an unauthenticated request.
 */
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/mount-prefix");
const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

async function serverWith(order: "auth-first" | "middleware-first"): Promise<TestServer> {
  const server = await startTestServer({ configPath: path.join(fixtures, `${order}.langgraph.json`) });
  servers.push(server);
  return server;
}

async function requestsSeenBy(server: TestServer, token: string): Promise<Array<{ path: string; user: string | null }>> {
  const bearer = { authorization: `Bearer ${token}` };
  expect((await fetch(`${server.url}/threads/search`, { method: "POST", headers: { ...bearer, "content-type": "application/json" }, body: "{}" })).status).toBe(200);
  expect((await fetch(`${server.url}/threads/search`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(401);
  const seen = await fetch(`${server.url}/custom/seen`, { headers: bearer });
  expect(seen.status).toBe(200);
  return (await seen.json()) as Array<{ path: string; user: string | null }>;
}

describe("http.middleware_order", () => {
  it("middleware_first: the deployment's middleware sees every request before authentication", async () => {
    const server = await serverWith("middleware-first");
    expect(await requestsSeenBy(server, await signUserToken("alice"))).toEqual([
      { path: "/threads/search", user: null },
      { path: "/threads/search", user: null },
    ]);
  });

  it("auth_first: it sees the authenticated user, and an unauthenticated request never reaches it", async () => {
    const server = await serverWith("auth-first");
    expect(await requestsSeenBy(server, await signUserToken("alice"))).toEqual([{ path: "/threads/search", user: "alice" }]);
    // The app's own routes are authenticated too: its middleware cannot be told from its routes before it runs.
    expect((await fetch(`${server.url}/custom/seen`)).status).toBe(401);
  });
});
