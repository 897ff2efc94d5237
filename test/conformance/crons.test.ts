import type { CronCreateResponse } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemAssistantId } from "../../src/domain/ids.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Cron CRUD through the official SDK client (and plain fetch for the fields the SDK does not
// send: timezone, end_time on create). Firing is covered in test/cron/.
let server: TestServer;
beforeAll(async () => {
  // No run worker: nothing here needs a run executed.
  server = await startTestServer({ roles: { api: true, worker: false } });
});
afterAll(async () => {
  await server?.close();
});

const ECHO_ID = systemAssistantId("echo");
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
const human = (content: string) => ({ messages: [{ role: "user", content }] });
const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

async function postJson(pathname: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await server.request(pathname, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("crons through the official SDK client", () => {
  it("creates a stateless cron with the SDK's fields and defaults", async () => {
    const before = Date.now();
    const cron = await server.client.crons.create("echo", {
      schedule: "*/5 * * * *",
      input: human("tick"),
      metadata: { purpose: "report" },
      config: { tags: ["nightly"] },
      context: { greeting: "hello" },
    });
    expect(cron).toMatchObject({
      assistant_id: ECHO_ID, // a graph name resolves to its system assistant
      thread_id: null,
      schedule: "*/5 * * * *",
      timezone: "UTC",
      metadata: { purpose: "report" },
      end_time: null,
      enabled: true,
      on_run_completed: "delete",
      user_id: null,
      payload: {
        assistant_id: ECHO_ID,
        input: human("tick"),
        config: { tags: ["nightly"] },
        context: { greeting: "hello" },
        multitask_strategy: "enqueue",
        stream_mode: ["values"],
      },
    });
    expect(cron.cron_id).toMatch(/^[0-9a-f-]{36}$/);
    const next = new Date(cron.next_run_date!);
    expect(next.getTime()).toBeGreaterThan(before);
    expect(next.getTime()).toBeLessThanOrEqual(before + 5 * 60_000);
    expect(next.getUTCMinutes() % 5).toBe(0);
    expect(next.getUTCSeconds()).toBe(0);
    expect(new Date(cron.created_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(cron.updated_at).toBe(cron.created_at);
  });

  it("creates a cron on a thread, which keeps no on_run_completed", async () => {
    const thread = await server.client.threads.create();
    const assistant = await server.client.assistants.create({ graphId: "echo" });
    const cron = await server.client.crons.createForThread(thread.thread_id, assistant.assistant_id, {
      schedule: "0 9 * * MON-FRI",
      input: human("standup"),
      multitaskStrategy: "interrupt",
    });
    expect(cron).toMatchObject({
      thread_id: thread.thread_id,
      assistant_id: assistant.assistant_id,
      schedule: "0 9 * * MON-FRI",
      on_run_completed: null,
      payload: { input: human("standup"), multitask_strategy: "interrupt" },
    });
    const next = new Date(cron.next_run_date!);
    expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([9, 0]);
    expect([1, 2, 3, 4, 5]).toContain(next.getUTCDay());
  });

  it("reads the schedule in the given timezone and stores end_time (fields the SDK's create does not send)", async () => {
    const endTime = new Date(Date.now() + 30 * 24 * 3600_000).toISOString();
    const { status, body } = await postJson("/runs/crons", {
      assistant_id: "echo",
      schedule: "30 9 * * *",
      timezone: "america/new_york",
      end_time: endTime,
      on_run_completed: "keep",
      input: human("morning"),
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ timezone: "America/New_York", end_time: endTime, on_run_completed: "keep" });
    const next = new Date(body.next_run_date as string);
    // 09:30 in New York is 13:30 or 14:30 UTC depending on DST.
    expect(next.getUTCMinutes()).toBe(30);
    expect([13, 14]).toContain(next.getUTCHours());
  });

  it("searches, counts, updates and deletes", async () => {
    const assistant = await server.client.assistants.create({ graphId: "echo", name: "cron owner" });
    const thread = await server.client.threads.create();
    const created: CronCreateResponse[] = [];
    for (const schedule of ["0 1 * * *", "0 2 * * *", "0 3 * * *"]) {
      created.push(await server.client.crons.create(assistant.assistant_id, { schedule, input: human(schedule) }));
    }
    created.push(await server.client.crons.createForThread(thread.thread_id, assistant.assistant_id, { schedule: "0 4 * * *" }));

    expect(await server.client.crons.count({ assistantId: assistant.assistant_id })).toBe(4);
    expect(await server.client.crons.count({ threadId: thread.thread_id })).toBe(1);
    const byNextRun = await server.client.crons.search({ assistantId: assistant.assistant_id, sortBy: "next_run_date", sortOrder: "asc" });
    // Which daily slot comes first depends on the time of day the test runs.
    const soonestFirst = [...created].sort((a, b) => Date.parse(a.next_run_date) - Date.parse(b.next_run_date));
    expect(byNextRun.map((cron) => cron.cron_id)).toEqual(soonestFirst.map((cron) => cron.cron_id));
    const page = await server.client.crons.search({ assistantId: assistant.assistant_id, sortBy: "created_at", sortOrder: "asc", limit: 2, offset: 1 });
    expect(page.map((cron) => cron.cron_id)).toEqual([created[1]!.cron_id, created[2]!.cron_id]);
    const onThread = await server.client.crons.search({ threadId: thread.thread_id, select: ["cron_id", "schedule"] });
    expect(onThread).toEqual([{ cron_id: created[3]!.cron_id, schedule: "0 4 * * *" }]);

    // A new schedule re-plans the next run; payload fields and metadata are replaced as given.
    const updated = await server.client.crons.update(created[0]!.cron_id, {
      schedule: "15 6 * * *",
      input: human("changed"),
      metadata: { v: 2 },
    });
    expect(updated).toMatchObject({ schedule: "15 6 * * *", metadata: { v: 2 }, payload: { input: human("changed") } });
    expect(new Date(updated.next_run_date!).getUTCHours()).toBe(6);
    expect(new Date(updated.updated_at).getTime()).toBeGreaterThan(new Date(created[0]!.updated_at).getTime());

    // Disabled: no next run, and found by the enabled filter.
    const disabled = await server.client.crons.update(created[1]!.cron_id, { enabled: false });
    expect(disabled).toMatchObject({ enabled: false, next_run_date: null });
    const off = await server.client.crons.search({ assistantId: assistant.assistant_id, enabled: false });
    expect(off.map((cron) => cron.cron_id)).toEqual([created[1]!.cron_id]);
    const inAMonth = new Date(Date.now() + 30 * 24 * 3600_000).toISOString();
    const enabledAgain = await server.client.crons.update(created[1]!.cron_id, { enabled: true, endTime: inAMonth });
    expect(enabledAgain.enabled).toBe(true);
    expect(new Date(enabledAgain.next_run_date!).getUTCHours()).toBe(2);
    expect(enabledAgain.end_time).toBe(inAMonth);

    await server.client.crons.delete(created[2]!.cron_id);
    expect(await server.client.crons.count({ assistantId: assistant.assistant_id })).toBe(3);
    await expect(server.client.crons.delete(created[2]!.cron_id)).rejects.toThrow(/404/);

    // A cron goes with its thread, and with its assistant.
    await server.client.threads.delete(thread.thread_id);
    expect(await server.client.crons.count({ threadId: thread.thread_id })).toBe(0);
    expect(await server.client.crons.count({ assistantId: assistant.assistant_id })).toBe(2);
    await server.client.assistants.delete(assistant.assistant_id);
    expect(await server.client.crons.count({ assistantId: assistant.assistant_id })).toBe(0);
  });
});

describe("refused cron requests create and change nothing", () => {
  const invalidSchedules: Array<[string, RegExp]> = [
    ["0 25 * * *", /^schedule: hour field "25" is out of range 0-23$/],
    ["61 * * * *", /schedule: minute field "61" is out of range 0-59/],
    ["0 0 32 * *", /schedule: day-of-month field "32" is out of range 1-31/],
    ["0 0 * 13 *", /schedule: month field "13" is out of range 1-12/],
    ["0 0 * * 9", /schedule: day-of-week field "9" is out of range 0-7/],
    ["0 0 * JANUARY *", /schedule: month field "JANUARY"/],
    ["*/0 * * * *", /schedule: minute field "\*\/0": the step must be/],
    ["30-10 * * * *", /schedule: minute field "30-10": the range starts after it ends/],
    ["* * * *", /schedule: expected 5 fields .* got 4/],
    ["0 0 * * * *", /schedule: expected 5 fields .* got 6 .*seconds/],
    ["@hourly", /schedule: macros such as "@hourly" are not supported/],
    ["0 0 L * *", /schedule: day-of-month field "L"/],
    ["0 0 * * MON#1", /schedule: day-of-week field "MON#1": "#" is not supported/],
    ["0 0 30 2 *", /schedule: "0 0 30 2 \*" never fires/],
    ["", /schedule: expected 5 fields/],
  ];

  it.each(invalidSchedules)("schedule %j → 422 naming the field and value", async (schedule, detail) => {
    const before = await server.client.crons.count();
    for (const pathname of ["/runs/crons", `/threads/${(await server.client.threads.create()).thread_id}/runs/crons`]) {
      const response = await postJson(pathname, { assistant_id: "echo", schedule, input: human("x") });
      expect(response.status).toBe(422);
      expect(response.body.detail).toMatch(detail);
    }
    expect(await server.client.crons.count()).toBe(before);
  });

  const otherCases: Array<{ name: string; body: () => Promise<Record<string, unknown>>; path?: () => Promise<string>; status: number; detail: RegExp }> = [
    { name: "unknown timezone", body: async () => ({ schedule: "* * * * *", timezone: "Mars/Olympus_Mons" }), status: 422, detail: /timezone: "Mars\/Olympus_Mons" is not an IANA time zone/ },
    { name: "UTC offset as timezone", body: async () => ({ schedule: "* * * * *", timezone: "+02:00" }), status: 422, detail: /timezone: "\+02:00"/ },
    { name: "end_time in the past", body: async () => ({ schedule: "* * * * *", end_time: "2020-01-01T00:00:00Z" }), status: 422, detail: /end_time: 2020-01-01T00:00:00.000Z is not in the future/ },
    { name: "end_time not a timestamp", body: async () => ({ schedule: "* * * * *", end_time: "tomorrow" }), status: 422, detail: /end_time: must be an ISO 8601 timestamp/ },
    { name: "end_time before the first firing", body: async () => ({ schedule: "0 0 1 1 *", end_time: inAnHour() }), status: 422, detail: /end_time: the schedule's next firing .* is after end_time/ },
    { name: "missing schedule", body: async () => ({}), status: 422, detail: /schedule: schedule is required/ },
    { name: "non-http webhook", body: async () => ({ schedule: "* * * * *", webhook: "ftp://x" }), status: 422, detail: /webhook must be an http\(s\) URL/ },
    { name: "unknown multitask strategy", body: async () => ({ schedule: "* * * * *", multitask_strategy: "queue" }), status: 422, detail: /multitask_strategy/ },
    { name: "unknown assistant", body: async () => ({ schedule: "* * * * *", assistant_id: UNKNOWN_ID }), status: 404, detail: new RegExp(`^No assistant found for "${UNKNOWN_ID}"`) },
    { name: "neither an assistant id nor a graph", body: async () => ({ schedule: "* * * * *", assistant_id: "nope" }), status: 404, detail: /^No assistant found for "nope"\. Make sure/ },
    { name: "unknown thread", path: async () => `/threads/${UNKNOWN_ID}/runs/crons`, body: async () => ({ schedule: "* * * * *" }), status: 404, detail: new RegExp(`Thread '${UNKNOWN_ID}' not found`) },
    { name: "malformed thread id", path: async () => "/threads/abc/runs/crons", body: async () => ({ schedule: "* * * * *" }), status: 404, detail: /Thread 'abc' not found/ },
  ];

  it.each(otherCases)("$name → $status", async ({ body, path, status, detail }) => {
    const before = await server.client.crons.count();
    const response = await postJson(path ? await path() : "/runs/crons", { assistant_id: "echo", ...(await body()) });
    expect(response.status).toBe(status);
    expect(response.body.detail).toMatch(detail);
    expect(await server.client.crons.count()).toBe(before);
  });

  it("a refused update changes nothing; unknown crons are 404", async () => {
    const cron = await server.client.crons.create("echo", { schedule: "0 12 * * *", input: human("noon") });
    for (const payload of [{ schedule: "0 24 * * *" }, { endTime: "2001-01-01T00:00:00Z" }, { schedule: "0 0 * * *", endTime: "2001-01-01T00:00:00Z" }]) {
      await expect(server.client.crons.update(cron.cron_id, payload)).rejects.toThrow(/422/);
    }
    const [stored] = await server.client.crons.search({ assistantId: ECHO_ID, sortBy: "created_at", sortOrder: "desc", limit: 1 });
    expect(stored).toEqual(cron);
    await expect(server.client.crons.update(UNKNOWN_ID, { enabled: false })).rejects.toThrow(/404/);
    await expect(server.client.crons.update("not-a-uuid", { enabled: false })).rejects.toThrow(/404/);
    await expect(server.client.crons.delete(UNKNOWN_ID)).rejects.toThrow(/404/);
  });

  it("/info reports crons", async () => {
    const info = (await (await server.request("/info")).json()) as { flags: { crons: boolean } };
    expect(info.flags.crons).toBe(true);
  });
});
