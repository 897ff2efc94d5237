import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cronsService } from "../../src/services/crons.service.js";
import { makeCronsDue, runsPerCron } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import {
  CreateAssistantDocument,
  CreateCronDocument,
  CreateThreadDocument,
  CronSchedulePreviewDocument,
  GetCronDocument,
  GetCronNodeDocument,
  ListAssistantsWithCronsDocument,
  ListCronsDocument,
  ListCronsWithRunsDocument,
  ListThreadsWithCronsDocument,
  type ListCronsQuery,
} from "./generated/graphql.js";
import { errorCode, executeOk, executeOperation } from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  // No run worker: the runs firings queue stay pending (and their threads stay), so they can be counted.
  server = await startTestServer({ roles: { api: true, worker: false } });
  await server.hangar.scheduler!.ready;
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });

async function fireOnce(cronIds: string[], expected: number[]): Promise<void> {
  await makeCronsDue(server.database, cronIds);
  await vi.waitFor(async () => expect([...(await runsPerCron(server.database, cronIds)).values()]).toEqual(expected), { timeout: 10_000, interval: 50 });
}

describe("Cron", () => {
  it("has its runs (newest first), lastRun and nextRunAt", async () => {
    const { createCron } = await executeOk(server, CreateCronDocument, { input: { assistantId: "echo", schedule: "0 0 1 1 *", input: human("x"), onRunCompleted: "KEEP" } });
    const cronId = createCron.cron.cronId;
    const before = await executeOk(server, GetCronDocument, { cronId });
    expect(before.cron).toMatchObject({ lastRun: null, runs: { totalCount: 0, edges: [] }, assistant: { graphId: "echo" }, thread: null });
    expect(before.cron.nextRunAt).toBe(createCron.cron.nextRunAt);

    await fireOnce([cronId], [1]);
    await fireOnce([cronId], [2]);
    const { cron } = await executeOk(server, GetCronDocument, { cronId });
    expect(cron.runs.totalCount).toBe(2);
    expect(cron.lastRun).toMatchObject({ runId: cron.runs.edges[0]!.node.runId, status: "PENDING", metadata: { cron_id: cronId } });
    // Each firing ran on its own new thread.
    expect(new Set(cron.runs.edges.map((edge) => edge.node.threadId)).size).toBe(2);
    // Fired from a back-dated slot: the next one is the schedule's next after now.
    expect(new Date(cron.nextRunAt!).getTime()).toBeGreaterThan(Date.now());

    const node = await executeOk(server, GetCronNodeDocument, { id: createCron.cron.id });
    expect(node.node).toMatchObject({ __typename: "Cron", cronId, schedule: "0 0 1 1 *" });
  });

  it("loads runs and lastRun of a page of crons in one batch", async () => {
    const { createAssistant } = await executeOk(server, CreateAssistantDocument, { input: { graphId: "echo" } });
    const assistantId = createAssistant.assistant.assistantId;
    const cronIds: string[] = [];
    for (let index = 0; index < 3; index++) {
      const { createCron } = await executeOk(server, CreateCronDocument, { input: { assistantId, schedule: "0 0 1 1 *", onRunCompleted: "KEEP" } });
      cronIds.push(createCron.cron.cronId);
    }
    await fireOnce(cronIds.slice(0, 2), [1, 1]);

    const perCron = vi.spyOn(cronsService, "listRunsOfMany");
    const { crons } = await executeOk(server, ListCronsWithRunsDocument, { assistantId });
    expect(crons.edges.map((edge) => edge.node.runs.totalCount)).toEqual([1, 1, 0]);
    expect(crons.edges.map((edge) => edge.node.lastRun?.runId ?? null)).toEqual(crons.edges.map((edge) => edge.node.runs.edges[0]?.node.runId ?? null));
    expect(perCron).toHaveBeenCalledTimes(1);
    expect([...perCron.mock.calls[0]![1]].sort()).toEqual([...cronIds].sort());
  });
});

describe("Thread.crons and Assistant.crons", () => {
  it("are batched across a page: one service call per kind", async () => {
    const suite = { suite: "crons-owners" };
    const threadIds: string[] = [];
    for (let index = 0; index < 3; index++) {
      const { createThread } = await executeOk(server, CreateThreadDocument, { input: { metadata: suite } });
      threadIds.push(createThread.thread.threadId);
    }
    const assistantIds: string[] = [];
    for (let index = 0; index < 2; index++) {
      const { createAssistant } = await executeOk(server, CreateAssistantDocument, { input: { graphId: "echo", metadata: suite } });
      assistantIds.push(createAssistant.assistant.assistantId);
    }
    // Thread 0: two crons (of both assistants); thread 1: one; thread 2: none; plus a stateless one.
    const plan = [
      { threadId: threadIds[0], assistantId: assistantIds[0] },
      { threadId: threadIds[0], assistantId: assistantIds[1] },
      { threadId: threadIds[1], assistantId: assistantIds[0] },
      { threadId: null, assistantId: assistantIds[1] },
    ];
    for (const { threadId, assistantId } of plan) {
      await executeOk(server, CreateCronDocument, { input: { threadId, assistantId: assistantId!, schedule: "0 12 * * *" } });
    }

    const listOf = vi.spyOn(cronsService, "listOf");
    const threads = await executeOk(server, ListThreadsWithCronsDocument, { metadata: suite });
    expect(threads.threads.edges.map((edge) => edge.node.crons.totalCount)).toEqual([2, 1, 0]);
    expect(listOf).toHaveBeenCalledTimes(1);
    expect(listOf.mock.calls[0]![1]).toBe("thread");

    listOf.mockClear();
    const assistants = await executeOk(server, ListAssistantsWithCronsDocument, { metadata: suite });
    expect(assistants.assistants.edges.map((edge) => edge.node.crons.totalCount)).toEqual([2, 2]);
    expect(assistants.assistants.edges[1]!.node.crons.edges.map((edge) => edge.node.threadId)).toEqual([threadIds[0], null]);
    expect(listOf).toHaveBeenCalledTimes(1);
    expect(listOf.mock.calls[0]![1]).toBe("assistant");
  });
});

describe("crons connection", () => {
  it("filters and pages", async () => {
    const { createAssistant } = await executeOk(server, CreateAssistantDocument, { input: { graphId: "echo" } });
    const assistantId = createAssistant.assistant.assistantId;
    const enabledNext: Array<{ schedule: string; nextRunAt: string }> = [];
    for (const schedule of ["0 1 * * *", "0 2 * * *", "0 3 * * *", "0 4 * * *"]) {
      const { createCron } = await executeOk(server, CreateCronDocument, { input: { assistantId, schedule, enabled: schedule !== "0 4 * * *" } });
      if (createCron.cron.nextRunAt) enabledNext.push({ schedule, nextRunAt: createCron.cron.nextRunAt });
    }
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page: ListCronsQuery = await executeOk(server, ListCronsDocument, { assistantId, first: 3, after, sortBy: "NEXT_RUN_DATE", sortOrder: "ASC" });
      seen.push(...page.crons.edges.map((edge) => edge.node.schedule));
      after = page.crons.pageInfo.hasNextPage ? page.crons.pageInfo.endCursor : null;
    } while (after);
    // Soonest first (which daily slot comes first depends on the time of day); the disabled one
    // has no next run and sorts last.
    const soonestFirst = enabledNext.sort((a, b) => Date.parse(a.nextRunAt) - Date.parse(b.nextRunAt)).map((cron) => cron.schedule);
    expect(seen).toEqual([...soonestFirst, "0 4 * * *"]);
    const disabled = await executeOk(server, ListCronsDocument, { assistantId, enabled: false });
    expect(disabled.crons.edges.map((edge) => edge.node)).toEqual([{ cronId: expect.any(String), schedule: "0 4 * * *", enabled: false, nextRunAt: null }]);
    expect((await executeOk(server, ListCronsDocument, { assistantId: "no-such-graph" })).crons.totalCount).toBe(0);
  });
});

describe("cronSchedulePreview", () => {
  it("lists the next firings in the zone, five by default", async () => {
    const { cronSchedulePreview } = await executeOk(server, CronSchedulePreviewDocument, { schedule: "30 9 * * MON-FRI", timezone: "Asia/Tokyo" });
    expect(cronSchedulePreview).toHaveLength(5);
    for (const firing of cronSchedulePreview) {
      const date = new Date(firing);
      // 09:30 in Tokyo (UTC+9) is 00:30 UTC, Monday to Friday there.
      expect([date.getUTCHours(), date.getUTCMinutes()]).toEqual([0, 30]);
      expect([1, 2, 3, 4, 5]).toContain(date.getUTCDay());
      expect(date.getTime()).toBeGreaterThan(Date.now());
    }
    expect([...cronSchedulePreview].sort()).toEqual(cronSchedulePreview);
    const three = await executeOk(server, CronSchedulePreviewDocument, { schedule: "*/10 * * * *", count: 3 });
    const gaps = three.cronSchedulePreview.slice(1).map((firing, index) => new Date(firing).getTime() - new Date(three.cronSchedulePreview[index]!).getTime());
    expect(gaps).toEqual([600_000, 600_000]);
  });

  it.each([
    [{ schedule: "0 9 * * FUNDAY" }, /^schedule: day-of-week field "FUNDAY"/],
    [{ schedule: "0 9 * *" }, /^schedule: expected 5 fields/],
    [{ schedule: "0 9 * * *", timezone: "Atlantis/Capital" }, /^timezone: "Atlantis\/Capital" is not an IANA time zone/],
    [{ schedule: "0 9 * * *", count: 0 }, /^count: must be between 1 and 100, got 0$/],
    [{ schedule: "0 9 * * *", count: 101 }, /^count: must be between 1 and 100, got 101$/],
  ])("%j → INVALID_INPUT naming the field", async (variables, message) => {
    const result = await executeOperation(server, CronSchedulePreviewDocument, variables);
    expect(errorCode(result)).toBe("INVALID_INPUT");
    expect(result.errors?.[0]?.message).toMatch(message);
  });
});
