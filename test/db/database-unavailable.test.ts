import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CuttableProxy } from "../helpers/cuttable-proxy.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

/**
 * PostgreSQL out of reach (a real TCP proxy between Hangar and the server, cut and restored):
 * REST answers 503 JSON with Retry-After, GraphQL `extensions.code` UNAVAILABLE, and once the
 * connection is back the same process serves and executes runs again, without a restart.
 */

let database: TestDatabase;
let proxy: CuttableProxy;
let server: TestServer;

beforeAll(async () => {
  database = await createTestDatabase();
  const target = new URL(database.url);
  proxy = new CuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
  await proxy.listen();
  server = await startTestServer({ database: { ...database, url: proxy.proxiedUrl(database.url) } });
});
afterAll(async () => {
  await proxy?.restore();
  await server?.close();
  await proxy?.close();
  await database?.retire();
});

async function createThread(): Promise<Response> {
  return server.request("/threads", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
}

async function listAssistants(): Promise<{ data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }> }> {
  const response = await server.request("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "{ assistants(first: 1) { edges { node { id } } } }" }),
  });
  return response.json();
}

/** Polls until fn passes (the pool and the listener reconnect on their own, within seconds). */
async function eventually(fn: () => Promise<void>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

describe("the database out of reach", () => {
  for (const mode of ["reset", "refuse"] as const) {
    it(`answers 503 / UNAVAILABLE while cut (${mode}), then recovers without a restart`, async () => {
      expect((await createThread()).status).toBe(200);
      await proxy.cut(mode);
      try {
        // Two requests each: the first may meet a pooled connection that just died, the second a
        // fresh connection attempt.
        for (let attempt = 0; attempt < 2; attempt++) {
          const response = await createThread();
          expect(response.status).toBe(503);
          expect(response.headers.get("retry-after")).toBe("5");
          expect(response.headers.get("content-type")).toMatch(/application\/json/);
          expect(await response.json()).toEqual({ detail: "The database is unavailable; try again shortly" });
          const result = await listAssistants();
          expect(result.errors?.[0]?.extensions?.code).toBe("UNAVAILABLE");
        }
      } finally {
        await proxy.restore();
      }
      await eventually(async () => expect((await createThread()).status).toBe(200));
      await eventually(async () => expect((await listAssistants()).errors).toBeUndefined());
      // The worker claims and settles runs again.
      const thread = await server.client.threads.create();
      const result = await server.client.runs.wait(thread.thread_id, "echo", { input: { messages: [{ role: "user", content: "back" }] } });
      expect(JSON.stringify(result)).toContain("echo: back");
    }, 60_000);
  }
});

describe("runs in flight across a database blip", () => {
  it("pause and finish once it is back: no run fails, none runs again, none waits for its lease", async () => {
    const runs = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const thread = await server.client.threads.create();
        const run = await server.client.runs.create(thread.thread_id, "slow", { input: { messages: [] }, context: { step_ms: 700 } });
        return { threadId: thread.thread_id, runId: run.run_id };
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 900));
    await proxy.cut("reset");
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await proxy.restore();
    const restoredAt = Date.now();
    await Promise.all(runs.map((run) => server.client.runs.join(run.threadId, run.runId)));
    // The lease is 30 s: a run left to its lease's expiry would take that long.
    expect(Date.now() - restoredAt).toBeLessThan(15_000);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ status: string; attempt: number }>("SELECT status, attempt FROM runs WHERE run_id = ANY($1::uuid[])", [
        runs.map((run) => run.runId),
      ]);
      expect(rows).toEqual(runs.map(() => ({ status: "success", attempt: 1 })));
    } finally {
      await client.end();
    }
    for (const run of runs) {
      const state = await server.client.threads.getState(run.threadId);
      expect((state.values as { messages: Array<{ content: string }> }).messages.map((message) => message.content)).toEqual([
        "first done",
        "second done",
        "third done",
      ]);
    }
  }, 60_000);
});
