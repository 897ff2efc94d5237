import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceContext } from "../../src/runtime.js";
import { cronsService } from "../../src/services/crons.service.js";
import { makeCronsDue, sql } from "../helpers/sql.js";
import { startStatementCountingServer, type StatementCountingServer } from "../helpers/statement-counting-server.js";

// What a cron tick sends to PostgreSQL, counted by a wire proxy between the server and the
// database (an API-only server: no worker, no scheduler of its own; the test fires the tick).
// A batch of firings queues its runs and records its firings in one statement: the firings were
// once a second INSERT fed by a second JSON document of the batch's ids, one more statement per
// 1,000 firings for PostgreSQL to parse, plan and run (bench crons, issue 31).
let counting: StatementCountingServer;
beforeAll(async () => {
  counting = await startStatementCountingServer();
});
afterAll(async () => {
  await counting?.close();
});

const input = { messages: [{ role: "user", content: "tick" }] };

describe("a cron tick's statements", () => {
  it("one batch queues its runs and records every firing, queued or refused, in the enqueue statement", async () => {
    const { server, proxy, database } = counting;
    const stateless = await Promise.all([1, 2, 3].map(() => server.client.crons.create("echo", { schedule: "0 0 1 1 *", input, onRunCompleted: "keep" })));
    // A thread busy with a pending run (no worker takes it): its `reject` cron's firing is refused.
    const thread = await server.client.threads.create();
    await server.client.runs.create(thread.thread_id, "echo", { input });
    const rejecting = await server.client.crons.createForThread(thread.thread_id, "echo", { schedule: "0 0 1 1 *", input, multitaskStrategy: "reject" });
    const cronIds = [...stateless.map((cron) => cron.cron_id), rejecting.cron_id];
    await makeCronsDue(database, cronIds);

    proxy.reset();
    const tick = await cronsService.fireDue(createServiceContext(server.hangar.runtime, { kind: "anonymous" }), { batchSize: 1000 });
    proxy.pause();

    expect(tick).toMatchObject({ fired: 3, refused: 1, deferred: 0 });
    // By their first words: two firing loops claim in parallel; each batch one of them claims
    // (usually one loop takes all four crons; under load each may take some) queues, records and
    // advances in its own transaction; then the tick reads the next due time.
    const sent: Record<string, number> = {};
    for (const [text, count] of proxy.statements) {
      const kind = text.split(" ").slice(0, 3).join(" ");
      sent[kind] = (sent[kind] ?? 0) + count;
    }
    const batches = sent["UPDATE crons SET"] ?? 0;
    expect(batches === 1 || batches === 2).toBe(true);
    expect(sent).toEqual({
      "START TRANSACTION": 2,
      "SELECT c.cron_id, c.assistant_id,": 2,
      "WITH given AS": batches,
      "UPDATE crons SET": batches,
      COMMIT: 2,
      "SELECT min(next_run_date) AS": 1,
    });

    const firings = await sql<{ cron_id: string; firing_id: string; run_id: string | null; status: string; fired_at: Date; ended_at: Date | null }>(
      database,
      "SELECT cron_id, firing_id, run_id, status, fired_at, ended_at FROM cron_firings WHERE cron_id = ANY($1::uuid[])",
      [cronIds],
    );
    expect(firings).toHaveLength(4);
    const runs = await sql<{ run_id: string; cron_id: string }>(database, "SELECT run_id, cron_id FROM runs WHERE cron_id = ANY($1::uuid[])", [cronIds]);
    for (const cron of stateless) {
      const firing = firings.find((row) => row.cron_id === cron.cron_id)!;
      const run = runs.find((row) => row.cron_id === cron.cron_id)!;
      expect(firing).toMatchObject({ status: "pending", run_id: run.run_id, firing_id: run.run_id, ended_at: null });
    }
    const refused = firings.find((row) => row.cron_id === rejecting.cron_id)!;
    expect(refused).toMatchObject({ status: "refused", run_id: null });
    expect(refused.ended_at).toEqual(refused.fired_at);
    expect(runs.filter((row) => row.cron_id === rejecting.cron_id)).toEqual([]);
  });
});
