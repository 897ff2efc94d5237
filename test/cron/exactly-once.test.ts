import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { makeCronsDue, runsPerCron, sql } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Two Hangar processes' schedulers (each its own clock and pool) on one database.
// Every slot must become exactly one run, whichever scheduler claims it. A small batch size makes
// both claim in parallel, several transactions per round.
const CRONS = 40;
const ROUNDS = 5;

let database: TestDatabase;
const servers: TestServer[] = [];
const firedBy = [0, 0];

beforeAll(async () => {
  database = await createTestDatabase();
  for (const index of [0, 1]) {
    // No run worker: queued runs stay pending, so every firing stays countable.
    const server = await startTestServer({ database, roles: { api: true, worker: false }, env: { HANGAR_CRON_BATCH_SIZE: "7" } });
    servers.push(server);
    server.hangar.scheduler!.onTick((tick) => (firedBy[index]! += tick.fired));
  }
  await Promise.all(servers.map((server) => server.hangar.scheduler!.ready));
});

afterAll(async () => {
  for (const server of servers) await server.close();
  await database?.retire();
});

describe("two schedulers on one database", () => {
  it("fire each slot exactly once", async () => {
    const cronIds: string[] = [];
    for (let index = 0; index < CRONS; index++) {
      const client = servers[index % 2]!.client;
      const cron = await client.crons.create("echo", { schedule: "0 0 1 1 *", input: { n: index }, onRunCompleted: "keep" });
      cronIds.push(cron.cron_id);
    }
    for (let round = 1; round <= ROUNDS; round++) {
      await makeCronsDue(database, cronIds, round);
      await vi.waitFor(
        async () => {
          const [{ due }] = await sql<{ due: number }>(database, "SELECT count(*)::int AS due FROM crons WHERE next_run_date <= now()");
          expect(due).toBe(0);
        },
        { timeout: 10_000, interval: 25 },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 300)); // a late duplicate would show up now

    const perCron = await runsPerCron(database, cronIds);
    expect([...perCron.values()]).toEqual(cronIds.map(() => ROUNDS));
    // Both schedulers' own accounts add up to the same total (no firing reported twice or lost).
    expect(firedBy[0]! + firedBy[1]!).toBe(CRONS * ROUNDS);
    const [{ threads }] = await sql<{ threads: number }>(database, "SELECT count(*)::int AS threads FROM threads WHERE metadata ? 'cron_id'");
    expect(threads).toBe(CRONS * ROUNDS);
    console.log(`firings per scheduler: ${firedBy.join(" + ")}`);
  });
});
