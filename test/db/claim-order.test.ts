import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLAIM_RUNS, claimRuns } from "../../src/db/sql/claim-runs.js";
import { sql } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// No worker: the test plays the workers. Runs are written by SQL so their creation times and
// run_after are exact; the claim reads nothing else of them.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ roles: { api: true, worker: false, cron: false } });
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await sql(server.database, "DELETE FROM threads");
});

const BASE = Date.parse("2026-01-01T00:00:00Z");
const at = (seconds: number) => new Date(BASE + seconds * 1000);
const NOW = at(1_000);

async function thread(): Promise<string> {
  const threadId = randomUUID();
  await sql(server.database, "INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at) VALUES ($1, now(), now(), now())", [threadId]);
  return threadId;
}

async function run(threadId: string, createdAt: Date, options: { status?: string; runAfter?: Date; runId?: string } = {}) {
  const runId = options.runId ?? randomUUID();
  await sql(
    server.database,
    `INSERT INTO runs (run_id, thread_id, assistant_id, status, multitask_strategy, kwargs, created_at, updated_at, run_after)
     VALUES ($1, $2, $3, $4, 'enqueue', '{}', $5, $5, $6)`,
    [runId, threadId, randomUUID(), options.status ?? "pending", createdAt, options.runAfter ?? createdAt],
  );
  return runId;
}

const claimOf = (limit: number, workerId = "worker-test") =>
  claimRuns(server.hangar.runtime.db.dataSource.manager, { workerId, limit, leaseMs: 30_000, now: NOW });
const claim = async (limit: number, workerId = "worker-test") => (await claimOf(limit, workerId)).runs.map(({ run }) => run.runId);

const finish = (runId: string) => sql(server.database, "UPDATE runs SET status = 'success' WHERE run_id = $1", [runId]);

describe("claiming runs", () => {
  it("takes a thread's runs one at a time, in creation order", async () => {
    const threadId = await thread();
    const third = await run(threadId, at(3));
    const first = await run(threadId, at(1));
    const second = await run(threadId, at(2));

    expect(await claim(10)).toEqual([first]);
    expect(await claim(10)).toEqual([]); // the thread is busy
    await finish(first);
    expect(await claim(10)).toEqual([second]);
    await finish(second);
    expect(await claim(10)).toEqual([third]);
  });

  it("takes the oldest runs across threads first, at most `limit`", async () => {
    const threads = [await thread(), await thread(), await thread(), await thread()];
    const runs = [
      await run(threads[2]!, at(10)),
      await run(threads[0]!, at(30)),
      await run(threads[3]!, at(20)),
      await run(threads[1]!, at(40)),
    ];

    // Which runs a claim takes is the rule; the order of its answer is not.
    expect((await claim(2)).sort()).toEqual([runs[0], runs[2]].sort());
    expect((await claim(2)).sort()).toEqual([runs[1], runs[3]].sort());
  });

  it("leaves a thread alone while one of its runs is running, and finished runs hold nothing back", async () => {
    const busy = await thread();
    await run(busy, at(1), { status: "running" });
    const queuedBehind = await run(busy, at(2));
    const idle = await thread();
    await run(idle, at(0), { status: "success" });
    await run(idle, at(0.5), { status: "interrupted" });
    const ready = await run(idle, at(3));

    expect(await claim(10)).toEqual([ready]);
    expect((await sql(server.database, "SELECT status FROM runs WHERE run_id = $1", [queuedBehind]))[0]).toEqual({ status: "pending" });
  });

  it("waits for run_after; a run not yet due does not hold back a due run behind it", async () => {
    const threadId = await thread();
    const later = await run(threadId, at(1), { runAfter: at(2_000) });
    const due = await run(threadId, at(2));

    expect(await claim(10)).toEqual([due]);
    await finish(due);
    expect(await claim(10)).toEqual([]);
    await sql(server.database, "UPDATE runs SET run_after = $2 WHERE run_id = $1", [later, at(999)]);
    expect(await claim(10)).toEqual([later]);
  });

  it("orders runs created in the same millisecond by run id", async () => {
    const threadId = await thread();
    const ids = [randomUUID(), randomUUID(), randomUUID()].sort();
    for (const runId of [ids[2]!, ids[0]!, ids[1]!]) await run(threadId, at(5), { runId });

    for (const expected of ids) {
      expect(await claim(10)).toEqual([expected]);
      await finish(expected);
    }
  });

  it("reads a prefix of the queue: one thread's backlog at its head yields that thread's first run, and the next claim the runs behind it", async () => {
    const backlog = await thread();
    const first = await run(backlog, at(1));
    for (let index = 2; index <= 20; index++) await run(backlog, at(index));
    const others = [await thread(), await thread(), await thread()];
    const behind = [await run(others[0]!, at(30)), await run(others[1]!, at(31)), await run(others[2]!, at(32))];

    // The prefix read (4 x limit) holds only the backlog's runs: one claimable, and the claim says
    // the prefix was full, so the caller claims again.
    const short = await claimOf(4);
    expect(short.runs.map(({ run }) => run.runId)).toEqual([first]);
    expect(short.prefixFull).toBe(true);
    // The backlog's thread is busy now: its runs are passed over, and the others are reached.
    const rest = await claimOf(4);
    expect(rest.runs.map(({ run }) => run.runId).sort()).toEqual([...behind].sort());
    expect(rest.prefixFull).toBe(false);
  });

  it("skips a thread whose oldest run another claimer holds, without taking the run queued behind it", async () => {
    const contended = await thread();
    const held = await run(contended, at(1));
    await run(contended, at(2));
    const other = await thread();
    const free = await run(other, at(3));

    // Another process's claim, mid-transaction: it has locked the thread's oldest run.
    const otherClaimer = new pg.Client({ connectionString: server.database.url });
    await otherClaimer.connect();
    try {
      await otherClaimer.query("BEGIN");
      await otherClaimer.query("SELECT 1 FROM runs WHERE run_id = $1 FOR UPDATE", [held]);
      expect(await claim(10)).toEqual([free]);
      await otherClaimer.query("ROLLBACK");
    } finally {
      await otherClaimer.end();
    }
    expect(await claim(10)).toEqual([held]);
  });
});

describe("the claim's plan", () => {
  it("stays linear on a runs table PostgreSQL has no statistics for yet (a new database before autovacuum)", async () => {
    const client = new pg.Client({ connectionString: server.database.url });
    await client.connect();
    try {
      await client.query("BEGIN");
      // Statistics dropped, as on a table never analyzed: the planner then expects ~1 pending run.
      await client.query("DELETE FROM pg_statistic WHERE starelid = 'runs'::regclass");
      await client.query("UPDATE pg_class SET reltuples = -1, relpages = 0 WHERE oid = 'runs'::regclass");
      await client.query(`
        WITH t AS (
          INSERT INTO threads (thread_id, created_at, updated_at, state_updated_at)
          SELECT gen_random_uuid(), now(), now(), now() FROM generate_series(1, 1000) RETURNING thread_id)
        INSERT INTO runs (run_id, thread_id, assistant_id, status, multitask_strategy, kwargs, created_at, updated_at, run_after)
        SELECT gen_random_uuid(), thread_id, gen_random_uuid(), 'pending', 'enqueue', '{}', clock_timestamp(), now(), now() - interval '1 s' FROM t`);
      const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${CLAIM_RUNS.text}`, ["worker-plan", 4, new Date(), 30_000]);
      const removedByJoinFilter = (node: Record<string, unknown>): number =>
        Number(node["Rows Removed by Join Filter"] ?? 0) +
        ((node.Plans as Array<Record<string, unknown>> | undefined) ?? []).reduce((sum, child) => sum + removedByJoinFilter(child), 0);
      const plan = (rows[0]["QUERY PLAN"] as Array<{ Plan: Record<string, unknown> }>)[0]!.Plan;
      // Pending runs compared with each other would remove ~1,000,000 rows here.
      expect(removedByJoinFilter(plan)).toBeLessThan(10_000);
      expect(JSON.stringify(plan)).toContain('"Actual Rows":4');
    } finally {
      await client.query("ROLLBACK");
      await client.end();
    }
  });
});
