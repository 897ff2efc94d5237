import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceContext } from "../../src/runtime.js";
import { retentionService } from "../../src/services/retention.service.js";
import { GetThreadExpiryDocument } from "../graphql/generated/graphql.js";
import { executeOk } from "../graphql/helpers.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// store.ttl: default 60 minutes, no refresh on read; both sweeps every 0.3 s (0.005 minutes).
const TTL_DEPLOYMENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/ttl.langgraph.json");
const SHORT_TTL_MINUTES = 0.01; // 600 ms

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ configPath: TTL_DEPLOYMENT });
});

afterAll(async () => {
  await server?.close();
});

async function sql<Row extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<Row[]> {
  return (await server.hangar.runtime.db.pool.query<Row>(text, values)).rows;
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("store item TTLs", () => {
  it("an item with a short ttl disappears at once when it expires, and the sweeper deletes its row", async () => {
    await server.client.store.putItem(["ttl", "short"], "k", { v: 1 }, { ttl: SHORT_TTL_MINUTES });
    // Its expiry, on the database's clock: on a loaded machine a read right after the put can
    // already come after the 600 ms, so the test waits for the expiry instead of racing it.
    const [written] = await sql<{ lives_ms: number }>(
      "SELECT extract(epoch FROM expires_at - updated_at)::float8 * 1000 AS lives_ms FROM store_items WHERE namespace = '{ttl,short}'",
    );
    expect(written!.lives_ms).toBe(SHORT_TTL_MINUTES * 60_000);
    await waitFor(async () => (await sql("SELECT 1 FROM store_items WHERE namespace = '{ttl,short}' AND expires_at > now()")).length === 0);
    expect(await server.client.store.getItem(["ttl", "short"], "k")).toBeNull();
    expect((await server.client.store.searchItems(["ttl", "short"])).items).toEqual([]);
    await waitFor(async () => (await sql("SELECT 1 FROM store_items WHERE namespace = '{ttl,short}'")).length === 0);
  });

  it("puts without ttl get store.ttl.default_ttl; ttl null never expires; reads do not refresh (refresh_on_read false)", async () => {
    await server.client.store.putItem(["ttl", "default"], "k", { v: 1 });
    await server.client.store.putItem(["ttl", "never"], "k", { v: 1 }, { ttl: null });
    const [defaulted] = await sql<{ expires_at: Date }>("SELECT expires_at FROM store_items WHERE namespace = '{ttl,default}'");
    const minutes = (defaulted!.expires_at.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(59);
    expect(minutes).toBeLessThanOrEqual(60);
    const [never] = await sql<{ expires_at: Date | null }>("SELECT expires_at FROM store_items WHERE namespace = '{ttl,never}'");
    expect(never!.expires_at).toBeNull();
    await server.client.store.getItem(["ttl", "default"], "k");
    const [after] = await sql<{ expires_at: Date }>("SELECT expires_at FROM store_items WHERE namespace = '{ttl,default}'");
    expect(after!.expires_at.getTime()).toBe(defaulted!.expires_at.getTime());
  });

  it("two sweepers at once remove each expired row once, without errors", async () => {
    await sql(
      `INSERT INTO store_items (namespace, key, value, expires_at)
       SELECT ARRAY['swept', (n % 7)::text], 'k' || n, '{}', now() - interval '1 second' FROM generate_series(1, 3000) n`,
    );
    const ctx = createServiceContext(server.hangar.runtime, { kind: "anonymous" });
    const counts = await Promise.all([retentionService.sweepExpiredStoreItems(ctx), retentionService.sweepExpiredStoreItems(ctx)]);
    // The background sweeper may have taken some as well: never more than there were, none left.
    expect(counts[0] + counts[1]).toBeLessThanOrEqual(3000);
    await waitFor(async () => (await sql("SELECT 1 FROM store_items WHERE namespace[1] = 'swept' LIMIT 1")).length === 0);
  });
});

describe("thread TTLs", () => {
  it("a thread with a short ttl is swept with its runs and checkpoints; GraphQL shows when it expires", async () => {
    const thread = await server.client.threads.create({ ttl: SHORT_TTL_MINUTES });
    await server.client.runs.wait(thread.thread_id, "echo", { input: { messages: [{ role: "user", content: "hi" }] } });
    expect((await sql("SELECT 1 FROM checkpoints WHERE thread_id = $1", [thread.thread_id])).length).toBeGreaterThan(0);
    const { thread: viewed } = await executeOk(server, GetThreadExpiryDocument, { threadId: thread.thread_id });
    expect(Date.parse(viewed!.expiresAt!) - Date.parse(viewed!.updatedAt)).toBe(SHORT_TTL_MINUTES * 60_000);

    await waitFor(async () => (await sql("SELECT 1 FROM threads WHERE thread_id = $1", [thread.thread_id])).length === 0);
    await expect(server.client.threads.get(thread.thread_id)).rejects.toMatchObject({ status: 404 });
    expect(await sql("SELECT 1 FROM checkpoints WHERE thread_id = $1", [thread.thread_id])).toEqual([]);
    expect(await sql("SELECT 1 FROM runs WHERE thread_id = $1", [thread.thread_id])).toEqual([]);
  });

  it("a thread with a running run is not swept while it runs", async () => {
    const thread = await server.client.threads.create({ ttl: { ttl: SHORT_TTL_MINUTES, strategy: "delete" } });
    // Steps long enough to outlast the ttl and the sweep below on any machine; cancelled after.
    const run = await server.client.runs.create(thread.thread_id, "slow", { input: { messages: [] }, context: { step_ms: 20_000 } });
    await waitFor(async () => (await server.client.runs.get(thread.thread_id, run.run_id)).status === "running");
    await waitFor(
      async () => (await sql("SELECT 1 FROM threads WHERE thread_id = $1 AND updated_at + ttl_minutes * interval '1 minute' <= now()", [thread.thread_id])).length === 1,
    );
    // Expired: a sweep now (this one, or the background one holding the sweep's lock) keeps it.
    await retentionService.sweepExpiredThreads(createServiceContext(server.hangar.runtime, { kind: "anonymous" }));
    expect((await server.client.threads.get(thread.thread_id)).thread_id).toBe(thread.thread_id);
    expect((await server.client.runs.get(thread.thread_id, run.run_id)).status).toBe("running");
    await server.client.runs.cancel(thread.thread_id, run.run_id, true);
    await waitFor(async () => (await sql("SELECT 1 FROM threads WHERE thread_id = $1", [thread.thread_id])).length === 0);
  });

  it("threads.update sets a ttl on a thread that had none; threads without one stay", async () => {
    const kept = await server.client.threads.create();
    const thread = await server.client.threads.create();
    expect((await executeOk(server, GetThreadExpiryDocument, { threadId: thread.thread_id })).thread!.expiresAt).toBeNull();
    await server.client.threads.update(thread.thread_id, { ttl: SHORT_TTL_MINUTES });
    await waitFor(async () => (await sql("SELECT 1 FROM threads WHERE thread_id = $1", [thread.thread_id])).length === 0);
    expect((await server.client.threads.get(kept.thread_id)).thread_id).toBe(kept.thread_id);
  });

  it("two thread sweepers at once: each expired thread deleted once, no error", async () => {
    await sql(
      `INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at, ttl_minutes)
       SELECT gen_random_uuid(), now(), now() - interval '1 hour', now(), 1 FROM generate_series(1, 1200)`,
    );
    const ctx = createServiceContext(server.hangar.runtime, { kind: "anonymous" });
    const counts = await Promise.all([retentionService.sweepExpiredThreads(ctx), retentionService.sweepExpiredThreads(ctx)]);
    expect(counts[0] + counts[1]).toBeLessThanOrEqual(1200);
    await waitFor(async () => (await sql("SELECT 1 FROM threads WHERE updated_at < now() - interval '30 minutes' LIMIT 1")).length === 0);
  });

  it("refuses a ttl that is not a positive number of minutes", async () => {
    const response = await server.request("/threads", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ttl: { ttl: -5, strategy: "delete" } }),
    });
    expect(response.status).toBe(422);
  });
});

describe("POST /threads/prune", () => {
  async function threadWithHistory(): Promise<string> {
    const thread = await server.client.threads.create();
    for (const content of ["one", "two"]) {
      await server.client.runs.wait(thread.thread_id, "echo", { input: { messages: [{ role: "user", content }] } });
    }
    return thread.thread_id;
  }

  async function prune(body: unknown): Promise<Response> {
    return server.request("/threads/prune", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  }

  it("keep_latest keeps each thread with only its latest checkpoint and its state", async () => {
    const threadId = await threadWithHistory();
    const before = await server.client.threads.getState(threadId);
    expect((await server.client.threads.getHistory(threadId)).length).toBeGreaterThan(2);
    const response = await prune({ thread_ids: [threadId], strategy: "keep_latest" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ pruned_count: 1 });
    const history = await server.client.threads.getHistory(threadId);
    expect(history).toHaveLength(1);
    const after = await server.client.threads.getState(threadId);
    expect(after.values).toEqual(before.values);
    expect(after.checkpoint.checkpoint_id).toBe(before.checkpoint.checkpoint_id);
    // The thread still runs on top of what was kept.
    const values = (await server.client.runs.wait(threadId, "echo", { input: { messages: [{ role: "user", content: "three" }] } })) as {
      messages: unknown[];
    };
    expect(values.messages).toHaveLength(6);
  });

  it("delete (the default) removes the threads with their checkpoints; unknown ids are skipped", async () => {
    const threadId = await threadWithHistory();
    const response = await prune({ thread_ids: [threadId, "00000000-0000-4000-8000-000000000000"] });
    expect(await response.json()).toEqual({ pruned_count: 1 });
    await expect(server.client.threads.get(threadId)).rejects.toMatchObject({ status: 404 });
    expect(await sql("SELECT 1 FROM checkpoints WHERE thread_id = $1", [threadId])).toEqual([]);
  });

  it("skips a thread with a running run; refuses bad input", async () => {
    const thread = await server.client.threads.create();
    const run = await server.client.runs.create(thread.thread_id, "slow", { input: { messages: [] }, context: { step_ms: 400 } });
    await waitFor(async () => (await server.client.runs.get(thread.thread_id, run.run_id)).status === "running");
    expect(await (await prune({ thread_ids: [thread.thread_id] })).json()).toEqual({ pruned_count: 0 });
    await server.client.runs.join(thread.thread_id, run.run_id);
    expect((await prune({ thread_ids: ["not-a-uuid"] })).status).toBe(422);
    expect((await prune({ thread_ids: [thread.thread_id], strategy: "shred" })).status).toBe(422);
    expect((await prune({})).status).toBe(422);
  });
});
