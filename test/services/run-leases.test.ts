import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { claimRuns } from "../../src/db/sql/claim-runs.js";
import { renewRunLeases } from "../../src/db/sql/renew-run-leases.js";
import { requeueExpiredRuns } from "../../src/db/sql/requeue-expired-runs.js";
import { selectRuns } from "../../src/db/sql/select-runs.js";
import { createServiceContext } from "../../src/runtime.js";
import { settleRun } from "../../src/services/run-lifecycle/settle-run.js";
import { sql } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { CONDITION_TIMEOUT_MS } from "../helpers/condition-timeout.js";

// No worker: the test plays the workers, each with its own (drifting) process clock.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ roles: { api: true, worker: false, cron: false } });
});
afterAll(async () => {
  await server?.close();
});

const LEASE_MS = 30_000;
const human = (content: string) => ({ messages: [{ role: "user", content }] });
const manager = () => server.hangar.runtime.db.dataSource.manager;
const shifted = (ms: number) => new Date(Date.now() + ms);

async function pendingRun() {
  const thread = await server.client.threads.create();
  const run = await server.client.runs.create(thread.thread_id, "echo", { input: human("hi") });
  return { threadId: thread.thread_id, runId: run.run_id };
}

async function runRow(runId: string) {
  const rows = await sql<{ status: string; lease_owner: string | null }>(server.database, "SELECT status, lease_owner FROM runs WHERE run_id = $1", [runId]);
  return rows[0];
}

/** Seconds from the database's now() to the run's lease expiry. */
async function leaseLeftSeconds(runId: string): Promise<number> {
  const rows = await sql<{ left: number }>(
    server.database,
    "SELECT extract(epoch FROM lease_expires_at - now())::float8 AS left FROM runs WHERE run_id = $1",
    [runId],
  );
  return rows[0]!.left;
}

describe("leases on the database's clock", () => {
  it("a worker whose clock runs 60 s ahead neither writes a longer lease nor requeues another worker's live run", async () => {
    const { runId } = await pendingRun();
    // Worker A, on the database's time, claims the run.
    const [claimed] = (await claimRuns(manager(), { workerId: "worker-a", limit: 10, leaseMs: LEASE_MS, now: new Date() })).runs;
    expect(claimed?.run.runId).toBe(runId);
    expect(await leaseLeftSeconds(runId)).toBeLessThanOrEqual(LEASE_MS / 1000);

    // Worker B's process clock is 60 s ahead: by its clock A's lease expired 30 s ago.
    expect(await requeueExpiredRuns(manager(), shifted(60_000))).toEqual([]);
    const [run] = await selectRuns(manager(), [runId]);
    expect(run).toMatchObject({ status: "running" });
    expect(await renewRunLeases(manager(), { workerId: "worker-a", runIds: [runId], leaseMs: LEASE_MS })).toEqual([
      { runId, cancelAction: null },
    ]);
  });

  it("a worker whose clock runs 60 s ahead claims with a lease measured from the database's now()", async () => {
    const { runId } = await pendingRun();
    await claimRuns(manager(), { workerId: "worker-fast", limit: 10, leaseMs: LEASE_MS, now: shifted(60_000) });
    const left = await leaseLeftSeconds(runId);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(LEASE_MS / 1000);
  });

  it("still requeues a run whose lease expired on the database's clock, whatever the caller's clock says", async () => {
    const { runId } = await pendingRun();
    await claimRuns(manager(), { workerId: "worker-gone", limit: 10, leaseMs: LEASE_MS, now: new Date() });
    await sql(server.database, "UPDATE runs SET lease_expires_at = now() - interval '1 second' WHERE run_id = $1", [runId]);
    // The caller's clock lags 60 s behind: by its clock the lease has 59 s left.
    expect(await requeueExpiredRuns(manager(), shifted(-60_000))).toContain(runId);
    expect(await runRow(runId)).toEqual({ status: "pending", lease_owner: null });
  });
});

describe("a late rollback", () => {
  it("deletes nothing when the worker lost its lease: the run and its checkpoints stay for the newer attempt", async () => {
    const { threadId, runId } = await pendingRun();
    await claimRuns(manager(), { workerId: "worker-old", limit: 10, leaseMs: LEASE_MS, now: new Date() });
    // A checkpoint the run wrote (stamped with its run id, as the run's checkpointer does).
    await sql(
      server.database,
      `INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata)
       VALUES ($1, '', 'cp-of-new-attempt', NULL, 'json', '{}'::jsonb, jsonb_build_object('run_id', $2::text))`,
      [threadId, runId],
    );
    // The old worker's lease expired and another worker took the run over.
    await sql(server.database, "UPDATE runs SET lease_owner = 'worker-new' WHERE run_id = $1", [runId]);

    const [run] = await selectRuns(manager(), [runId]);
    const ctx = createServiceContext(server.hangar.runtime, { kind: "anonymous" });
    expect(await settleRun(ctx, "worker-old", run!, { kind: "rolled-back" })).toEqual({ threadHasActiveRuns: false });

    expect(await runRow(runId)).toEqual({ status: "running", lease_owner: "worker-new" });
    const checkpoints = await sql(server.database, "SELECT 1 FROM checkpoints WHERE thread_id = $1", [threadId]);
    expect(checkpoints).toHaveLength(1);

    // The holder's rollback deletes both.
    await settleRun(ctx, "worker-new", run!, { kind: "rolled-back" });
    expect(await selectRuns(manager(), [runId])).toEqual([]);
    expect(await sql(server.database, "SELECT 1 FROM checkpoints WHERE thread_id = $1", [threadId])).toHaveLength(0);
  });
});

describe("a lease renewal beside a settle of the same runs", () => {
  /** Two runs claimed by `workerId` whose order by thread id differs from their order by run id. */
  async function runsInCrossedOrder(workerId: string) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const [one, two] = [await pendingRun(), await pendingRun()];
      const [byThread, other] = one.threadId < two.threadId ? [one, two] : [two, one];
      if (byThread.runId < other.runId) continue;
      const claimed = (await claimRuns(manager(), { workerId, limit: 100, leaseMs: LEASE_MS, now: new Date() })).runs;
      expect(claimed.map((run) => run.run.runId)).toEqual(expect.arrayContaining([one.runId, two.runId]));
      return { firstByThread: byThread.runId, secondByThread: other.runId };
    }
    throw new Error("no two runs in crossed order after 20 pairs");
  }

  it("locks the runs in thread order, as a settle does, so neither waits for the other in a cycle (no deadlock)", async () => {
    const { firstByThread, secondByThread } = await runsInCrossedOrder("worker-d");
    // Plays a batched settle: it holds the run first in thread order and will want the second.
    const settle = new pg.Client({ connectionString: server.database.url });
    await settle.connect();
    try {
      await settle.query("BEGIN");
      await settle.query("SELECT 1 FROM runs WHERE run_id = $1 FOR UPDATE", [firstByThread]);
      const renewal = renewRunLeases(manager(), { workerId: "worker-d", runIds: [firstByThread, secondByThread], leaseMs: LEASE_MS });
      // The renewal waits for the settle's row (in run id order it would hold the second row by now).
      await vi.waitFor(async () => {
        const waiting = await sql(
          server.database,
          "SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.datname = current_database()",
        );
        expect(waiting.length).toBeGreaterThan(0);
      }, { timeout: CONDITION_TIMEOUT_MS });
      await settle.query("SELECT 1 FROM runs WHERE run_id = $1 FOR UPDATE", [secondByThread]);
      await settle.query("COMMIT");
      const held = await renewal;
      expect(held.map((run) => run.runId).sort()).toEqual([firstByThread, secondByThread].sort());
    } finally {
      await settle.end();
    }
  });
});
