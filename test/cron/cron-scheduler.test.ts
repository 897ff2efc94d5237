import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TickSummary } from "../../src/cron/cron-scheduler.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { makeCronsDue, sql } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Where the scheduler's work happens on PostgreSQL. `scheduling` runs the scheduler; `other`
// (no cron role) stands for another Hangar process on the same database. The safety poll is ten
// minutes, so any tick these tests see came from a wake-up, not from the poll.
const SAFETY_POLL_MS = 600_000;
/** Well under the safety poll: a NOTIFY relayed by the run-signal listener takes milliseconds. */
const PROMPTLY_MS = 3_000;

let database: TestDatabase;
let scheduling: TestServer;
let other: TestServer;
const ticks: Array<TickSummary & { at: number }> = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const env = { HANGAR_CRON_POLL_MS: String(SAFETY_POLL_MS) };
  // No run worker: a fired run stays pending, so the tests see what the firing did.
  scheduling = await startTestServer({ database, env, roles: { api: true, worker: false } });
  other = await startTestServer({ database, env, roles: { api: true, worker: false, cron: false } });
  scheduling.hangar.scheduler!.onTick((tick) => ticks.push({ ...tick, at: Date.now() }));
  await scheduling.hangar.scheduler!.ready;
});

afterAll(async () => {
  await other?.close();
  await scheduling?.close();
  await database?.retire();
});

/**
 * Resolves with the first tick since the `since`-th that plans for `slot` (the clock re-armed for
 * it). `since` is counted before the change: the tick may come before the change's HTTP answer.
 */
function tickPlanning(slot: Date, since: number): Promise<TickSummary & { at: number }> {
  return vi.waitFor(
    () => {
      const tick = ticks.slice(since).find((seen) => seen.nextDueAt?.getTime() === slot.getTime());
      expect(tick).toBeDefined();
      return tick!;
    },
    { timeout: PROMPTLY_MS, interval: 20 },
  );
}

/** A `* * * * *` slot must not pass before the tick that plans for it: not within 4 s of a minute boundary. */
async function awayFromMinuteBoundary(): Promise<void> {
  const toBoundary = 60_000 - (Date.now() % 60_000);
  if (toBoundary < 4_000) await new Promise((resolve) => setTimeout(resolve, toBoundary + 100));
}

describe("the cron scheduler on PostgreSQL", () => {
  it("re-plans promptly when another process creates a cron (LISTEN hangar_cron_changed on the main thread)", async () => {
    await awayFromMinuteBoundary();
    // The earliest slot on the database, so the scheduler must wake for it.
    const createdAt = Date.now();
    const since = ticks.length;
    const cron = await other.client.crons.create("echo", { schedule: "* * * * *", input: { n: 1 }, onRunCompleted: "keep" });
    const tick = await tickPlanning(new Date(cron.next_run_date!), since);
    expect(tick.at - createdAt).toBeLessThan(PROMPTLY_MS);
    await other.client.crons.delete(cron.cron_id);
  });

  it("re-plans after its listener reconnects, for a cron created while it was disconnected", async () => {
    await awayFromMinuteBoundary();
    // Drop both servers' LISTEN connections; they reconnect after a second. The cron below is
    // created meanwhile, so its NOTIFY reaches nobody: only the wake-up after the reconnect tells.
    const since = ticks.length;
    await sql(database, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'hangar-run-signals'", [
      database.name,
    ]);
    const cron = await other.client.crons.create("echo", { schedule: "* * * * *", input: { n: 2 }, onRunCompleted: "keep" });
    await tickPlanning(new Date(cron.next_run_date!), since);
    await other.client.crons.delete(cron.cron_id);
  });

  it("fires on the main thread's pool: the job thread holds no database connection", async () => {
    const cron = await other.client.crons.create("echo", { schedule: "0 0 1 1 *", input: { n: 3 }, onRunCompleted: "keep" });
    // Record which backend inserts the firing's run.
    await sql(database, `
      CREATE TABLE fired_by (pid int NOT NULL);
      CREATE FUNCTION record_firing_backend() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO fired_by VALUES (pg_backend_pid()); RETURN NEW; END $$;
      CREATE TRIGGER record_firing_backend AFTER INSERT ON runs FOR EACH ROW WHEN (NEW.cron_id IS NOT NULL)
        EXECUTE FUNCTION record_firing_backend();`);
    try {
      await makeCronsDue(database, [cron.cron_id]);
      const [firing] = await vi.waitFor(
        async () => {
          const rows = await sql<{ pid: number }>(database, "SELECT pid FROM fired_by");
          expect(rows).toHaveLength(1);
          return rows;
        },
        { timeout: PROMPTLY_MS, interval: 20 },
      );
      expect(scheduling.hangar.runtime.db.isOwnBackend(firing!.pid)).toBe(true);
    } finally {
      await sql(database, "DROP TRIGGER record_firing_backend ON runs; DROP FUNCTION record_firing_backend(); DROP TABLE fired_by");
    }

    // Every connection to the database belongs to a server's pool or is a server's one LISTEN
    // connection (besides the one asking): the scheduler opens none of its own.
    const backends = await sql<{ pid: number; application_name: string; is_asking: boolean }>(
      database,
      "SELECT pid, application_name, pid = pg_backend_pid() AS is_asking FROM pg_stat_activity WHERE datname = $1",
      [database.name],
    );
    const unaccounted = backends.filter(
      ({ pid, application_name: name, is_asking: isAsking }) =>
        !isAsking && name !== "hangar-run-signals" && ![scheduling, other].some((server) => server.hangar.runtime.db.isOwnBackend(pid)),
    );
    expect(unaccounted).toEqual([]);
    // At most one each (the other server's may still be reconnecting after the test above).
    expect(backends.filter(({ application_name: name }) => name === "hangar-run-signals").length).toBeLessThanOrEqual(2);
  });
});
