import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const calls = globalThis as { hangarAuthCacheCalls?: number };
const authenticateCalls = () => calls.hangarAuthCacheCalls ?? 0;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ configPath: path.resolve(here, "../fixtures/auth-cache/langgraph.json") });
});
afterAll(() => server.close());

/** A request that needs a user: threads the caller may see. */
const searchAs = (token: string, headers: Record<string, string> = {}) =>
  server.request("/threads/search", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...headers },
    body: "{}",
  });

describe("langgraph.json auth.cache", () => {
  it("keeps successful authenticate results per cache_keys header for ttl_seconds; refusals are not kept", async () => {
    const start = authenticateCalls();
    // A refusal is asked again each time.
    expect((await searchAs("mallory")).status).toBe(401);
    expect((await searchAs("mallory")).status).toBe(401);
    expect(authenticateCalls() - start).toBe(2);
    const bobThread = await server.request("/threads", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer bob" },
      body: "{}",
    });
    expect(bobThread.status).toBe(200);
    expect(authenticateCalls() - start).toBe(3);
    // The same Authorization, other headers differing: authenticated once, as alice (bob's thread
    // is not hers: the cached entry is her own, not bob's).
    const cachedAt = Date.now();
    for (const agent of ["a", "b", "c"]) expect(await (await searchAs("alice", { "user-agent": agent })).json()).toEqual([]);
    expect(authenticateCalls() - start).toBe(4);
    // Past ttl_seconds (5 s) alice is authenticated again.
    await expect.poll(async () => (await searchAs("alice"), authenticateCalls() - start), { timeout: 15_000, interval: 250 }).toBe(5);
    expect(Date.now() - cachedAt).toBeGreaterThanOrEqual(4_900);
  });
});
