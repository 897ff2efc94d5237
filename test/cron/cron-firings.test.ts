import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CRON_FIRINGS_KEPT } from "../../src/domain/cron.js";
import { createServiceContext } from "../../src/runtime.js";
import { cronsService } from "../../src/services/crons.service.js";
import { CronFiringsDocument } from "../graphql/generated/graphql.js";
import { executeOk } from "../graphql/helpers.js";
import { makeCronsDue, sql } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

/**
 * A cron's firing record: a stateless cron's run and thread are deleted after the run, yet its
 * last firing (run id, status, start and end, error) stays visible in REST crons.search (read
 * with the official SDK) and GraphQL (Cron.lastFiring, Cron.firings).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await server.hangar.scheduler!.ready;
});
afterAll(async () => {
  await server?.close();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });
const waitUntil = (check: () => Promise<void> | void, timeout = 15_000) => vi.waitFor(check, { timeout, interval: 50 });

interface LastFiringWire {
  run_id: string | null;
  thread_id: string | null;
  status: string;
  fired_at: string;
  started_at: string | null;
  ended_at: string | null;
  error: { message?: string } | null;
}

async function lastFiringOf(cronId: string, assistantId?: string): Promise<LastFiringWire | null | undefined> {
  const crons = (await server.client.crons.search({ assistantId, limit: 100 })) as Array<{ cron_id: string; last_firing?: LastFiringWire | null }>;
  return crons.find((cron) => cron.cron_id === cronId)?.last_firing;
}

describe("cron firing records", () => {
  it("a stateless cron's last firing outlives its deleted run and thread", async () => {
    const cron = await server.client.crons.create("echo", { schedule: "0 0 1 1 *", input: human("tick") });
    expect(await lastFiringOf(cron.cron_id)).toBeNull();
    await makeCronsDue(server.database, [cron.cron_id]);

    await waitUntil(async () => expect((await lastFiringOf(cron.cron_id))?.status).toBe("success"));
    const firing = (await lastFiringOf(cron.cron_id))!;
    expect(firing).toMatchObject({ run_id: expect.any(String), thread_id: expect.any(String), error: null });
    const [fired, started, ended] = [firing.fired_at, firing.started_at!, firing.ended_at!].map((iso) => new Date(iso).getTime());
    expect(fired).toBeLessThanOrEqual(started!);
    expect(started).toBeLessThanOrEqual(ended!);
    // The run and its thread are gone (onRunCompleted: delete, the default) …
    await waitUntil(async () => expect(await sql(server.database, "SELECT 1 FROM threads WHERE thread_id = $1", [firing.thread_id])).toHaveLength(0));
    expect(await sql(server.database, "SELECT 1 FROM runs WHERE run_id = $1", [firing.run_id])).toHaveLength(0);

    // … so GraphQL's lastRun is null, but lastFiring tells how it went.
    const { cron: seen } = await executeOk(server, CronFiringsDocument, { cronId: cron.cron_id, first: 10 });
    expect(seen!.lastRun).toBeNull();
    expect(seen!.lastFiring).toMatchObject({ runId: firing.run_id, threadId: firing.thread_id, status: "SUCCESS", error: null, run: null });
    expect(new Date(seen!.lastFiring!.endedAt!).toISOString()).toBe(firing.ended_at);
    expect(seen!.firings.totalCount).toBe(1);
    expect(seen!.firings.edges.map((edge) => edge.node.runId)).toEqual([firing.run_id]);

    // A second firing becomes the last; both are listed, newest first.
    await makeCronsDue(server.database, [cron.cron_id]);
    await waitUntil(async () => {
      const again = await lastFiringOf(cron.cron_id);
      expect(again?.run_id).not.toBe(firing.run_id);
      expect(again?.status).toBe("success");
    });
    const { cron: twice } = await executeOk(server, CronFiringsDocument, { cronId: cron.cron_id, first: 10 });
    expect(twice!.firings.totalCount).toBe(2);
    expect(twice!.firings.edges[1]!.node.runId).toBe(firing.run_id);
  });

  it("a failed firing keeps its run's error", async () => {
    const cron = await server.client.crons.create("failing", { schedule: "0 0 1 1 *", input: human("boom") });
    await makeCronsDue(server.database, [cron.cron_id]);
    await waitUntil(async () => expect((await lastFiringOf(cron.cron_id))?.status).toBe("error"));
    const firing = (await lastFiringOf(cron.cron_id))!;
    expect(firing.error?.message).toMatch(/the fixture graph failed on purpose/);
    const { cron: seen } = await executeOk(server, CronFiringsDocument, { cronId: cron.cron_id });
    expect(seen!.lastFiring).toMatchObject({ status: "ERROR", error: { message: expect.stringMatching(/failed on purpose/) } });
  });

  it("a firing a busy thread refused is recorded without a run", async () => {
    const thread = await server.client.threads.create();
    const busy = await server.client.runs.create(thread.thread_id, "slow", { input: human("long"), context: { step_ms: 1500 } });
    await waitUntil(async () => expect((await server.client.runs.get(thread.thread_id, busy.run_id)).status).toBe("running"));
    const cron = await server.client.crons.createForThread(thread.thread_id, "echo", { schedule: "0 0 1 1 *", input: human("no"), multitaskStrategy: "reject" });
    await makeCronsDue(server.database, [cron.cron_id]);
    await waitUntil(async () => expect((await lastFiringOf(cron.cron_id))?.status).toBe("refused"));
    expect(await lastFiringOf(cron.cron_id)).toMatchObject({ run_id: null, thread_id: thread.thread_id, ended_at: expect.any(String) });
    await server.client.runs.join(thread.thread_id, busy.run_id);
  });

  it("`select` without last_firing leaves it out; naming it keeps it", async () => {
    const crons = await server.client.crons.search({ limit: 5, select: ["cron_id", "schedule"] });
    expect(crons.length).toBeGreaterThan(0);
    for (const cron of crons) expect(Object.keys(cron).sort()).toEqual(["cron_id", "schedule"]);
    const response = await server.request("/runs/crons/search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ limit: 5, select: ["cron_id", "last_firing"] }),
    });
    const withFirings = (await response.json()) as Array<Record<string, unknown>>;
    expect(withFirings.every((cron) => "last_firing" in cron)).toBe(true);
  });

  it("keeps each cron's newest firings when pruned (the hourly sweep)", async () => {
    const cron = await server.client.crons.create("echo", { schedule: "0 0 1 1 *", input: human("old") });
    const total = CRON_FIRINGS_KEPT + 5;
    await sql(
      server.database,
      `INSERT INTO cron_firings (firing_id, cron_id, status, fired_at)
       SELECT gen_random_uuid(), $1, 'success', now() - make_interval(mins => n) FROM generate_series(1, $2) AS n`,
      [cron.cron_id, total],
    );
    const ctx = createServiceContext(server.hangar.runtime, { kind: "anonymous" });
    expect(await cronsService.pruneFirings(ctx)).toBe(5);
    const [kept] = await sql<{ count: number; oldest_minutes: number }>(
      server.database,
      "SELECT count(*)::int AS count, round(extract(epoch FROM now() - min(fired_at)) / 60)::int AS oldest_minutes FROM cron_firings WHERE cron_id = $1",
      [cron.cron_id],
    );
    // The newest 100 (1 to 100 minutes old) stay; the 5 oldest went.
    expect(kept).toEqual({ count: CRON_FIRINGS_KEPT, oldest_minutes: CRON_FIRINGS_KEPT });
  });
});
