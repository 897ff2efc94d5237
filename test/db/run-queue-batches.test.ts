import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { RunCreate } from "../../src/rest/schemas/runs.js";
import { createRunFromWire } from "../../src/rest/run-wire.js";
import { createServiceContext } from "../../src/runtime.js";
import { createRun } from "../../src/services/run-lifecycle/create-run.js";
import { sql } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// No worker: runs stay pending until the test hands them to a (pretend) worker by SQL.
let server: TestServer;
let settleStatements = 0;
let enqueueStatements = 0;
beforeAll(async () => {
  server = await startTestServer({ roles: { api: true, worker: false, cron: false } });
  const pool = server.hangar.runtime.db.pool as pg.Pool;
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: unknown }).query = (...args: unknown[]) => {
    const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string }).text;
    if (text?.includes("hangar_settle_run")) settleStatements += 1;
    if (text?.includes("hangar_enqueue_run")) enqueueStatements += 1;
    return query(...args);
  };
});
afterAll(async () => {
  await server?.close();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });

async function runningRun(workerId: string) {
  const thread = await server.client.threads.create();
  const run = await server.client.runs.create(thread.thread_id, "echo", { input: human("hi") });
  await sql(server.database, "UPDATE runs SET status = 'running', lease_owner = $2, lease_expires_at = now() + interval '1 minute' WHERE run_id = $1", [
    run.run_id,
    workerId,
  ]);
  return { threadId: thread.thread_id, runId: run.run_id };
}

describe("the run queue's statements, batched across requests", () => {
  it("queues the runs created together in one statement, each with its own multitask outcome", async () => {
    const ctx = createServiceContext(server.hangar.runtime, { kind: "anonymous" });
    const create = (threadId: string | null, body: Record<string, unknown> = {}) =>
      createRun(ctx, createRunFromWire(RunCreate.parse({ assistant_id: "echo", input: human("hi"), ...body }), threadId));
    const busyThread = (await server.client.threads.create()).thread_id;
    const freeThread = (await server.client.threads.create()).thread_id;
    await create(busyThread); // also remembers the assistant, so the creates below go straight to the queue
    const newThread = crypto.randomUUID();

    enqueueStatements = 0;
    const [rejected, enqueued, onFree, created, missing] = await Promise.allSettled([
      create(busyThread),
      create(busyThread, { multitask_strategy: "enqueue" }),
      create(freeThread),
      create(newThread, { if_not_exists: "create" }),
      create(crypto.randomUUID()),
    ]);
    expect(enqueueStatements).toBe(1);
    expect(rejected).toMatchObject({ status: "rejected", reason: { code: "THREAD_BUSY" } });
    expect(missing).toMatchObject({ status: "rejected", reason: { code: "NOT_FOUND" } });
    for (const result of [enqueued, onFree, created]) expect(result).toMatchObject({ status: "fulfilled", value: { status: "pending" } });
    expect((await server.client.runs.list(busyThread)).map((run) => run.multitask_strategy).sort()).toEqual(["enqueue", "reject"]);
    expect(await server.client.runs.list(freeThread)).toHaveLength(1);
    expect((await server.client.threads.get(newThread)).metadata).toMatchObject({ graph_id: "echo" });
  });

  it("settles the runs that end together in one statement, answering each in its own order", async () => {
    const runs = [await runningRun("worker-a"), await runningRun("worker-a"), await runningRun("worker-b"), await runningRun("worker-a")];
    // The last thread has another run queued behind its running one: it stays busy.
    await server.client.runs.create(runs[3]!.threadId, "echo", { input: human("next"), multitaskStrategy: "enqueue" });
    const writer = server.hangar.runtime.db.runOutcomes;
    const settle = ({ runId, threadId }: { runId: string; threadId: string }, status: "success" | "error", values: object | null) =>
      writer.call({
        runId,
        workerId: "worker-a",
        status,
        error: status === "error" ? { error: "Boom", message: "it broke" } : null,
        thread: { threadId, values: values as never, interrupts: {}, status: status === "error" ? "error" : "idle", error: null },
        webhook: null,
      });

    settleStatements = 0;
    const settled = await Promise.all([
      settle(runs[0]!, "success", { answer: 0 }),
      settle(runs[1]!, "error", null),
      settle(runs[2]!, "success", { answer: 2 }),
      settle(runs[3]!, "success", { answer: 3 }),
    ]);
    expect(settleStatements).toBe(1);
    expect(settled).toEqual([
      { recorded: true, threadHasActiveRuns: false },
      { recorded: true, threadHasActiveRuns: false },
      // Another worker's run: not this worker's to record, nothing written.
      { recorded: false, threadHasActiveRuns: false },
      { recorded: true, threadHasActiveRuns: true },
    ]);

    const rows = await sql<{ run_id: string; status: string; error: object | null; values: object | null; thread_status: string }>(
      server.database,
      `SELECT r.run_id, r.status, r.error, t."values", t.status AS thread_status
       FROM runs r JOIN threads t USING (thread_id) WHERE r.run_id = ANY($1::uuid[])`,
      [runs.map((run) => run.runId)],
    );
    const byRun = new Map(rows.map((row) => [row.run_id, row]));
    expect(byRun.get(runs[0]!.runId)).toMatchObject({ status: "success", error: null, values: { answer: 0 }, thread_status: "idle" });
    expect(byRun.get(runs[1]!.runId)).toMatchObject({ status: "error", error: { error: "Boom" }, thread_status: "error" });
    expect(byRun.get(runs[2]!.runId)).toMatchObject({ status: "running" });
    expect(byRun.get(runs[3]!.runId)).toMatchObject({ status: "success", values: { answer: 3 }, thread_status: "busy" });
  });

  it("stamps a run's end when its settle statement is sent, not when the worker asked (a round in flight may hold it back)", async () => {
    const [first, second] = [await runningRun("worker-a"), await runningRun("worker-a")];
    const settle = ({ runId, threadId }: { runId: string; threadId: string }) =>
      server.hangar.runtime.db.runOutcomes.call({
        runId,
        workerId: "worker-a",
        status: "success",
        error: null,
        thread: { threadId, values: { done: true }, interrupts: {}, status: "idle", error: null },
        webhook: null,
      });
    // Another session holds the first run's thread row: its settle round waits in PostgreSQL.
    const holder = new pg.Client({ connectionString: server.database.url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM threads WHERE thread_id = $1 FOR UPDATE", [first.threadId]);
      const firstSettled = settle(first);
      await expect
        .poll(async () => (await holder.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'")).rows[0].n, { timeout: 30_000 })
        .toBeGreaterThan(0);
      // One round in flight at a time: the second run's settle waits for the next round.
      const secondSettled = settle(second);
      // The clock moves past the moment the second settle was asked for before the first round is let go.
      const asked = Date.now();
      while (Date.now() <= asked) await new Promise((resolve) => setImmediate(resolve));
      const released = Date.now();
      await holder.query("COMMIT");
      expect(await Promise.all([firstSettled, secondSettled])).toEqual([
        { recorded: true, threadHasActiveRuns: false },
        { recorded: true, threadHasActiveRuns: false },
      ]);
      const [row] = await sql<{ updated_at: Date; thread_updated_at: Date }>(
        server.database,
        "SELECT r.updated_at, t.updated_at AS thread_updated_at FROM runs r JOIN threads t USING (thread_id) WHERE r.run_id = $1",
        [second.runId],
      );
      // Stamped when the worker asked, it would precede the release of the round before it.
      expect(row!.updated_at.getTime()).toBeGreaterThanOrEqual(released);
      expect(row!.thread_updated_at.getTime()).toBe(row!.updated_at.getTime());
    } finally {
      await holder.end();
    }
  });
});
