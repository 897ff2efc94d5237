import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";
import { signUserToken } from "../helpers/user-tokens.js";

/**
 * POST /internal/truncate: LangGraph's development server's reset, which the official API suite
 * calls between its tests. Off unless HANGAR_ENABLE_TRUNCATE is on; operators only.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { HANGAR_ENABLE_TRUNCATE: "true" } });
});

afterAll(async () => {
  await server?.close();
});

async function truncate(flags: Record<string, unknown>): Promise<Response> {
  return server.request("/internal/truncate", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(flags) });
}

async function rowCount(table: string): Promise<number> {
  const { rows } = await server.hangar.runtime.db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
  return Number(rows[0]!.n);
}

describe("POST /internal/truncate", () => {
  it("empties exactly the flagged resources; the deployment's own assistants stay", async () => {
    const client = server.client;
    const systemAssistants = await client.assistants.search({ limit: 100 });
    const mine = await client.assistants.create({ graphId: "echo", name: "to go" });
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, mine.assistant_id, { input: { messages: [{ role: "user", content: "hi" }] } });
    await client.store.putItem(["truncate"], "k", { v: 1 });
    expect(await rowCount("checkpoints")).toBeGreaterThan(0);

    expect((await truncate({ store: true })).status).toBe(200);
    expect(await client.store.getItem(["truncate"], "k")).toBeNull();
    expect((await client.threads.search()).map((t) => t.thread_id)).toEqual([thread.thread_id]);

    const response = await truncate({ threads: true, assistants: true });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(await client.threads.search()).toEqual([]);
    expect(await rowCount("runs")).toBe(0);
    // A thread's checkpoints go with it.
    expect(await rowCount("checkpoints")).toBe(0);
    const left = await client.assistants.search({ limit: 100 });
    expect(left.map((a) => a.assistant_id).sort()).toEqual(systemAssistants.map((a) => a.assistant_id).sort());
  });

  it("runs and checkpoints can go on their own, leaving the threads", async () => {
    const client = server.client;
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "echo", { input: { messages: [{ role: "user", content: "hi" }] } });
    expect(await rowCount("runs")).toBeGreaterThan(0);

    expect((await truncate({ runs: true })).status).toBe(200);
    expect(await client.runs.list(thread.thread_id)).toEqual([]);
    expect(await rowCount("checkpoints")).toBeGreaterThan(0);

    // LangGraph's dev server calls the flag `checkpointer`; its test helper sends `checkpoint`.
    expect((await truncate({ checkpointer: true })).status).toBe(200);
    expect(await rowCount("checkpoints")).toBe(0);
    expect((await client.threads.get(thread.thread_id)).thread_id).toBe(thread.thread_id);
  });

  it("answers 422 naming the field for a flag that is not a boolean, and deletes nothing", async () => {
    const thread = await server.client.threads.create();
    const response = await truncate({ threads: "yes" });
    expect(response.status).toBe(422);
    expect(JSON.stringify(await response.json())).toContain("threads");
    expect((await server.client.threads.get(thread.thread_id)).thread_id).toBe(thread.thread_id);
  });
});

describe("when it is not turned on, or the caller is not an operator", () => {
  it("does not exist without HANGAR_ENABLE_TRUNCATE", async () => {
    const plain = await startTestServer({ database: server.database });
    try {
      const response = await plain.request("/internal/truncate", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(response.status).toBe(404);
      expect(await response.json()).toHaveProperty("detail");
    } finally {
      await plain.close();
    }
  });

  it("refuses a user of custom auth with 403, and an operator's API key may truncate", async () => {
    const authServer = await startTestServer({
      configPath: path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "auth.langgraph.json"),
      apiKeys: ["operator-key"],
      env: { HANGAR_ENABLE_TRUNCATE: "true" },
    });
    try {
      const thread = await authServer.client.threads.create();
      const asUser = await fetch(`${authServer.url}/internal/truncate`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${await signUserToken("alice")}` },
        body: JSON.stringify({ threads: true }),
      });
      expect(asUser.status).toBe(403);
      expect((await authServer.client.threads.get(thread.thread_id)).thread_id).toBe(thread.thread_id);
      const asOperator = await authServer.request("/internal/truncate", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ threads: true }),
      });
      expect(asOperator.status).toBe(200);
      expect(await authServer.client.threads.search()).toEqual([]);
    } finally {
      await authServer.close();
    }
  });
});
