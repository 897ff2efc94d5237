import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// The one test on the wall clock: nothing is forced due in SQL. The scheduler's clock
// sleeps until the next minute boundary and fires `* * * * *` crons there (at most ~60 s away).
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await server.hangar.scheduler!.ready;
});
afterAll(async () => {
  await server?.close();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });

describe("the wall clock", () => {
  it("fires `* * * * *` crons at the next minute: on their thread, and on a new thread for a stateless one", async () => {
    // Not right before a minute boundary: both crons must get the same next slot.
    const toBoundary = 60_000 - (Date.now() % 60_000);
    if (toBoundary < 2_000) await new Promise((resolve) => setTimeout(resolve, toBoundary + 100));
    const thread = await server.client.threads.create();
    const onThread = await server.client.crons.createForThread(thread.thread_id, "echo", { schedule: "* * * * *", input: human("thread tick") });
    const stateless = await server.client.crons.create("echo", { schedule: "* * * * *", input: human("stateless tick"), onRunCompleted: "keep" });
    const slot = new Date(onThread.next_run_date!);
    expect(slot.getTime()).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(stateless.next_run_date).toBe(onThread.next_run_date);

    await vi.waitFor(
      async () => {
        expect(await server.client.runs.list(thread.thread_id)).toHaveLength(1);
        expect(await server.client.threads.count({ metadata: { cron_id: stateless.cron_id } })).toBe(1);
      },
      { timeout: 70_000, interval: 250 },
    );
    // Stop them before a second minute comes.
    await server.client.crons.delete(onThread.cron_id);
    await server.client.crons.delete(stateless.cron_id);

    const [run] = await server.client.runs.list(thread.thread_id);
    expect(run!.metadata).toMatchObject({ cron_id: onThread.cron_id });
    await server.client.runs.join(thread.thread_id, run!.run_id);
    expect((await server.client.threads.getState(thread.thread_id)).values).toEqual({
      messages: [{ role: "user", content: "thread tick" }, { role: "assistant", content: "echo: thread tick" }],
    });

    const [created] = await server.client.threads.search({ metadata: { cron_id: stateless.cron_id } });
    const [statelessRun] = await server.client.runs.list(created!.thread_id);
    await server.client.runs.join(created!.thread_id, statelessRun!.run_id);
    const state = await server.client.threads.getState(created!.thread_id);
    expect((state.values as { messages: unknown[] }).messages[0]).toEqual({ role: "user", content: "stateless tick" });

    // Both fired at the slot: queued within a second of it. (Their cron_id went with the crons.)
    for (const queued of [run!, statelessRun!]) {
      const lagMs = new Date(queued.created_at).getTime() - slot.getTime();
      expect(lagMs).toBeGreaterThanOrEqual(0);
      expect(lagMs).toBeLessThan(1_000);
    }
  }, 80_000);
});
