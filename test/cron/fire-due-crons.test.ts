import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { makeCronsDue, runsPerCron, sql } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { CONDITION_TIMEOUT_MS } from "../helpers/condition-timeout.js";

// Firing through the real scheduler (its clock, claim SQL, NOTIFY wake-ups) and the real
// run worker. Instead of waiting for wall-clock slots, tests move a cron's next_run_date to now
// in SQL, as if its slot had come; the crons trigger's NOTIFY wakes the scheduler.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await server.hangar.scheduler!.ready;
});
afterAll(async () => {
  await server?.close();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });
const contents = (values: unknown) => ((values as { messages?: Array<{ content: string }> }).messages ?? []).map((m) => m.content);
const waitUntil = (check: () => Promise<void> | void, timeout = 10_000) => vi.waitFor(check, { timeout, interval: 50 });

async function cronRow(cronId: string) {
  const [row] = await sql<{ next_run_date: Date | null; enabled: boolean }>(
    server.database,
    "SELECT next_run_date, enabled FROM crons WHERE cron_id = $1",
    [cronId],
  );
  return row!;
}

describe("firing", () => {
  it("a thread cron queues a run with the stored input behind the thread's own run (enqueue)", async () => {
    const thread = await server.client.threads.create();
    const busy = await server.client.runs.create(thread.thread_id, "slow", { input: human("mine"), context: { step_ms: 150 } });
    const cron = await server.client.crons.createForThread(thread.thread_id, "slow", {
      schedule: "0 0 1 1 *",
      input: human("from cron"),
      metadata: { owner: "ops" },
      context: { step_ms: 10 },
    });
    await makeCronsDue(server.database, [cron.cron_id]);

    await waitUntil(async () => expect(await server.client.runs.list(thread.thread_id)).toHaveLength(2));
    const fired = (await server.client.runs.list(thread.thread_id)).find((run) => run.run_id !== busy.run_id)!;
    expect(fired).toMatchObject({ multitask_strategy: "enqueue", metadata: { owner: "ops", cron_id: cron.cron_id } });
    await server.client.runs.join(thread.thread_id, fired.run_id);
    // An ordinary run: its stream can be joined (replayed from the stored events).
    const events = [];
    for await (const part of server.client.runs.joinStream(thread.thread_id, fired.run_id)) events.push(part.event);
    expect(events[0]).toBe("metadata");
    expect(events).toContain("values");
    // Both ran, the user's first: the firing did not clobber it.
    expect((await server.client.runs.get(thread.thread_id, busy.run_id)).status).toBe("success");
    expect((await server.client.runs.get(thread.thread_id, fired.run_id)).status).toBe("success");
    const state = await server.client.threads.getState(thread.thread_id);
    expect(contents(state.values)).toEqual(["mine", "first done", "second done", "third done", "from cron", "first done", "second done", "third done"]);
    expect((await cronRow(cron.cron_id)).next_run_date!.getTime()).toBeGreaterThan(Date.now());
  });

  it("a stateless cron runs on a new thread that names the cron; `keep` keeps it", async () => {
    const cron = await server.client.crons.create("echo", { schedule: "0 0 1 1 *", input: human("stateless tick"), onRunCompleted: "keep" });
    await makeCronsDue(server.database, [cron.cron_id]);

    let threads = await server.client.threads.search({ metadata: { cron_id: cron.cron_id } });
    await waitUntil(async () => {
      threads = await server.client.threads.search({ metadata: { cron_id: cron.cron_id } });
      expect(threads).toHaveLength(1);
      expect(threads[0]!.status).toBe("idle");
    });
    expect(threads[0]!.metadata).toMatchObject({ cron_id: cron.cron_id, assistant_id: cron.assistant_id, graph_id: "echo" });
    expect(threads[0]!.values).toEqual({ messages: [{ role: "user", content: "stateless tick" }, { role: "assistant", content: "echo: stateless tick" }] });
    const [run] = await server.client.runs.list(threads[0]!.thread_id);
    expect(run).toMatchObject({ status: "success", metadata: { cron_id: cron.cron_id } });
    // Traced like any run.
    await waitUntil(async () => expect((await server.request(`/tracing/runs/${run!.run_id}`)).status).toBe(200));
  });

  it("a stateless cron's thread (with its run) is deleted after the run by default", async () => {
    const cron = await server.client.crons.create("echo", { schedule: "0 0 1 1 *", input: human("ephemeral") });
    await makeCronsDue(server.database, [cron.cron_id]);
    // The run may come and go between two polls, so its existence is read from its trace, which
    // outlives the thread.
    await waitUntil(async () => {
      const traced = await sql<{ id: string }>(
        server.database,
        "SELECT id FROM trace_runs WHERE parent_run_id IS NULL AND extra -> 'metadata' ->> 'cron_id' = $1",
        [cron.cron_id],
      );
      expect(traced).toHaveLength(1);
    });
    await waitUntil(async () => {
      expect(await server.client.threads.count({ metadata: { cron_id: cron.cron_id } })).toBe(0);
      expect((await runsPerCron(server.database, [cron.cron_id])).get(cron.cron_id)).toBe(0);
    });
  });

  it("slots missed while no scheduler ran give one catch-up firing, and the next slot is after now", async () => {
    const cron = await server.client.crons.create("echo", { schedule: "*/5 * * * *", input: human("late"), onRunCompleted: "keep" });
    await makeCronsDue(server.database, [cron.cron_id], 3 * 3600); // 36 slots ago
    await waitUntil(async () => expect((await cronRow(cron.cron_id)).next_run_date!.getTime()).toBeGreaterThan(Date.now()));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await runsPerCron(server.database, [cron.cron_id])).get(cron.cron_id)).toBe(1);
    const next = (await cronRow(cron.cron_id)).next_run_date!;
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    expect(next.getUTCMinutes() % 5).toBe(0);
  });

  it("wakes at the exact due time: a slot 1.5 s ahead fires within a second of it", async () => {
    const cron = await server.client.crons.create("echo", { schedule: "0 0 1 1 *", input: human("punctual"), onRunCompleted: "keep" });
    const [{ slot }] = await sql<{ slot: Date }>(
      server.database,
      "UPDATE crons SET next_run_date = date_trunc('milliseconds', now() + interval '1500 milliseconds') WHERE cron_id = $1 RETURNING next_run_date AS slot",
      [cron.cron_id],
    );
    await waitUntil(async () => expect((await runsPerCron(server.database, [cron.cron_id])).get(cron.cron_id)).toBe(1));
    const [{ created_at: createdAt }] = await sql<{ created_at: Date }>(server.database, "SELECT created_at FROM runs WHERE cron_id = $1", [cron.cron_id]);
    const lagMs = createdAt.getTime() - slot.getTime();
    expect(lagMs).toBeGreaterThanOrEqual(0);
    expect(lagMs).toBeLessThan(1_000);
  });
});

describe("what stops a cron", () => {
  it("disabled crons and crons past end_time do not fire", async () => {
    const disabled = await server.client.crons.create("echo", { schedule: "0 0 1 1 *", input: human("off"), enabled: false });
    expect(disabled.next_run_date).toBeNull();
    // Even with a due slot forced in, a disabled cron is not claimed.
    await makeCronsDue(server.database, [disabled.cron_id]);
    const ending = await server.client.crons.create("echo", { schedule: "0 0 1 1 *", input: human("last"), onRunCompleted: "keep" });
    // As if time had run on to just before end_time: the slot due now is the last one before it.
    await sql(server.database, "UPDATE crons SET end_time = now() + interval '1 minute' WHERE cron_id = $1", [ending.cron_id]);
    await makeCronsDue(server.database, [ending.cron_id]);

    // The ending cron fires once; its next slot is past end_time, so it has none.
    await waitUntil(async () => expect((await cronRow(ending.cron_id)).next_run_date).toBeNull());
    const runs = await runsPerCron(server.database, [disabled.cron_id, ending.cron_id]);
    expect(Object.fromEntries(runs)).toEqual({ [disabled.cron_id]: 0, [ending.cron_id]: 1 });
  });

  it("a busy thread refuses a firing of a cron whose multitask strategy is reject; interrupt stops the thread's run", async () => {
    const thread = await server.client.threads.create();
    const busy = await server.client.runs.create(thread.thread_id, "slow", { input: human("long"), context: { step_ms: 2000 } });
    await vi.waitFor(async () => expect((await server.client.runs.get(thread.thread_id, busy.run_id)).status).toBe("running"), { timeout: CONDITION_TIMEOUT_MS });
    const rejecting = await server.client.crons.createForThread(thread.thread_id, "echo", { schedule: "0 0 1 1 *", input: human("no"), multitaskStrategy: "reject" });
    await makeCronsDue(server.database, [rejecting.cron_id]);
    await waitUntil(async () => expect((await cronRow(rejecting.cron_id)).next_run_date!.getTime()).toBeGreaterThan(Date.now()));
    expect((await runsPerCron(server.database, [rejecting.cron_id])).get(rejecting.cron_id)).toBe(0);

    const interrupting = await server.client.crons.createForThread(thread.thread_id, "echo", { schedule: "0 0 1 1 *", input: human("now"), multitaskStrategy: "interrupt" });
    await makeCronsDue(server.database, [interrupting.cron_id]);
    await waitUntil(async () => expect((await server.client.runs.get(thread.thread_id, busy.run_id)).status).toBe("interrupted"));
    await waitUntil(async () => {
      const runs = await server.client.runs.list(thread.thread_id);
      expect(runs.find((run) => run.metadata?.cron_id === interrupting.cron_id)?.status).toBe("success");
    });
  });

  it.each([
    ["reject", { pending: "pending", fired: 0 }],
    ["enqueue", { pending: "pending", fired: 1 }],
    ["interrupt", { pending: "interrupted", fired: 1 }],
    ["rollback", { pending: "deleted", fired: 1 }],
  ] as const)("a firing with multitask %s on a thread whose run is pending: the run is %s", async (strategy, expected) => {
    const thread = await server.client.threads.create();
    // Due in an hour: it keeps the thread busy and never starts during the test.
    const pending = await server.client.runs.create(thread.thread_id, "echo", { input: human("later"), afterSeconds: 3600 });
    const cron = await server.client.crons.createForThread(thread.thread_id, "echo", { schedule: "0 0 1 1 *", input: human("fired"), multitaskStrategy: strategy });
    await makeCronsDue(server.database, [cron.cron_id]);
    // The slot moves on whether the firing queued a run or was refused.
    await waitUntil(async () => expect((await cronRow(cron.cron_id)).next_run_date!.getTime()).toBeGreaterThan(Date.now()));
    expect((await runsPerCron(server.database, [cron.cron_id])).get(cron.cron_id)).toBe(expected.fired);
    const [row] = await sql<{ status: string }>(server.database, "SELECT status FROM runs WHERE run_id = $1", [pending.run_id]);
    expect(row?.status ?? "deleted").toBe(expected.pending);
  });

  it("a firing with multitask rollback stops the thread's running run and erases it and its checkpoints", async () => {
    const thread = await server.client.threads.create();
    const busy = await server.client.runs.create(thread.thread_id, "slow", { input: human("long"), context: { step_ms: 2000 } });
    await vi.waitFor(async () => expect((await server.client.runs.get(thread.thread_id, busy.run_id)).status).toBe("running"), { timeout: CONDITION_TIMEOUT_MS });
    const cron = await server.client.crons.createForThread(thread.thread_id, "echo", { schedule: "0 0 1 1 *", input: human("instead"), multitaskStrategy: "rollback" });
    await makeCronsDue(server.database, [cron.cron_id]);
    await waitUntil(async () => {
      const runs = await server.client.runs.list(thread.thread_id);
      expect(runs.map((run) => [run.metadata?.cron_id, run.status])).toEqual([[cron.cron_id, "success"]]);
    });
    const [left] = await sql<{ n: number }>(
      server.database,
      "SELECT count(*)::int AS n FROM checkpoints WHERE thread_id = $1 AND metadata ->> 'run_id' = $2",
      [thread.thread_id, busy.run_id],
    );
    expect(left!.n).toBe(0);
    expect(contents((await server.client.threads.getState(thread.thread_id)).values)).toEqual(["instead", "echo: instead"]);
  });

  it("a thread locked elsewhere defers its crons (nothing written, still due) until it is free; two crons of one thread both queue", async () => {
    const thread = await server.client.threads.create();
    const crons = [];
    for (const text of ["first", "second"]) {
      crons.push(await server.client.crons.createForThread(thread.thread_id, "echo", { schedule: "0 0 1 1 *", input: human(text) }));
    }
    const cronIds = crons.map((cron) => cron.cron_id);
    const holder = new pg.Client({ connectionString: server.database.url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM threads WHERE thread_id = $1 FOR UPDATE", [thread.thread_id]);
      const deferredBoth = new Promise<void>((resolve) => {
        const stop = server.hangar.scheduler!.onTick((tick) => {
          if (tick.deferred >= 2) {
            stop();
            resolve();
          }
        });
      });
      await makeCronsDue(server.database, cronIds);
      const due = await Promise.all(cronIds.map(async (cronId) => (await cronRow(cronId)).next_run_date!));
      // A tick took both and deferred them: SKIP LOCKED, so it did not wait for the thread.
      await deferredBoth;
      expect(await Promise.all(cronIds.map(async (cronId) => (await cronRow(cronId)).next_run_date))).toEqual(due);
      expect(Object.fromEntries(await runsPerCron(server.database, cronIds))).toEqual(Object.fromEntries(cronIds.map((id) => [id, 0])));
    } finally {
      await holder.query("COMMIT");
      await holder.end();
    }
    await waitUntil(async () => {
      const runs = await server.client.runs.list(thread.thread_id);
      expect(runs.map((run) => run.metadata?.cron_id).sort()).toEqual([...cronIds].sort());
      expect(runs.every((run) => run.status === "success")).toBe(true);
    });
    const messages = contents((await server.client.threads.getState(thread.thread_id)).values);
    expect(messages).toHaveLength(4);
  });

  it("a firing whose run cannot be queued leaves the slot due (claim and run commit together), then fires once", async () => {
    const cron = await server.client.crons.create("echo", { schedule: "0 0 1 1 *", input: human("atomic"), onRunCompleted: "keep" });
    // A failure between claim and commit, as a crash would be: the run insert raises.
    await sql(server.database, `
      CREATE FUNCTION refuse_cron_run() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.cron_id = '${cron.cron_id}' THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER refuse_cron_run BEFORE INSERT ON runs FOR EACH ROW EXECUTE FUNCTION refuse_cron_run();`);
    try {
      await makeCronsDue(server.database, [cron.cron_id]);
      const due = (await cronRow(cron.cron_id)).next_run_date!;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await cronRow(cron.cron_id)).next_run_date).toEqual(due);
      expect((await runsPerCron(server.database, [cron.cron_id])).get(cron.cron_id)).toBe(0);
    } finally {
      await sql(server.database, "DROP TRIGGER refuse_cron_run ON runs; DROP FUNCTION refuse_cron_run()");
    }
    // The scheduler retries (error backoff) and the slot fires exactly once.
    await waitUntil(async () => expect((await runsPerCron(server.database, [cron.cron_id])).get(cron.cron_id)).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await runsPerCron(server.database, [cron.cron_id])).get(cron.cron_id)).toBe(1);
  });
});
