import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemAssistantId } from "../../src/domain/ids.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import {
  CreateCronDocument,
  CreateThreadDocument,
  DeleteCronDocument,
  GetCronDocument,
  ListCronsDocument,
  UpdateCronDocument,
} from "./generated/graphql.js";
import { errorCode, executeOk, executeOperation } from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ roles: { api: true, worker: false } });
});
afterAll(async () => {
  await server?.close();
});

const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
const human = (content: string) => ({ messages: [{ role: "user", content }] });
const cronCount = async () => (await executeOk(server, ListCronsDocument, {})).crons.totalCount;

describe("cron mutations", () => {
  it("creates a stateless cron and a thread cron", async () => {
    const { createCron } = await executeOk(server, CreateCronDocument, {
      input: { assistantId: "echo", schedule: "0 6 * * *", timezone: "Europe/Berlin", input: human("morning"), metadata: { team: "a" }, onRunCompleted: "KEEP" },
    });
    expect(createCron.cron).toMatchObject({
      assistantId: systemAssistantId("echo"),
      threadId: null,
      schedule: "0 6 * * *",
      timezone: "Europe/Berlin",
      input: human("morning"),
      multitaskStrategy: "ENQUEUE",
      metadata: { team: "a" },
      endTime: null,
      enabled: true,
      onRunCompleted: "KEEP",
    });
    // 06:00 in Berlin is 04:00 or 05:00 UTC.
    expect([4, 5]).toContain(new Date(createCron.cron.nextRunAt!).getUTCHours());
    expect(createCron.cron.payload).toMatchObject({ input: human("morning"), multitask_strategy: "enqueue" });

    const { createThread } = await executeOk(server, CreateThreadDocument, { input: {} });
    const onThread = await executeOk(server, CreateCronDocument, {
      input: { threadId: createThread.thread.threadId, assistantId: "echo", schedule: "*/15 * * * *", multitaskStrategy: "REJECT" },
    });
    expect(onThread.createCron.cron).toMatchObject({ threadId: createThread.thread.threadId, onRunCompleted: null, multitaskStrategy: "REJECT", input: null });
  });

  it("updates given fields, re-plans on schedule or enabled changes, and deletes", async () => {
    const { createCron } = await executeOk(server, CreateCronDocument, { input: { assistantId: "echo", schedule: "0 1 * * *", input: human("v1") } });
    const cronId = createCron.cron.cronId;

    const renamed = await executeOk(server, UpdateCronDocument, { input: { cronId, schedule: "30 2 * * *", input: human("v2"), metadata: { v: 2 } } });
    expect(renamed.updateCron.cron).toMatchObject({ schedule: "30 2 * * *", input: human("v2"), metadata: { v: 2 }, enabled: true });
    const next = new Date(renamed.updateCron.cron.nextRunAt!);
    expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([2, 30]);

    const disabled = await executeOk(server, UpdateCronDocument, { input: { cronId, enabled: false } });
    expect(disabled.updateCron.cron).toMatchObject({ enabled: false, nextRunAt: null, input: human("v2") });

    const { deleteCron } = await executeOk(server, DeleteCronDocument, { input: { cronId } });
    expect(deleteCron).toEqual({ deletedCronId: cronId, deletedId: createCron.cron.id });
    expect(errorCode(await executeOperation(server, GetCronDocument, { cronId }))).toBe("NOT_FOUND");
    expect(errorCode(await executeOperation(server, DeleteCronDocument, { input: { cronId } }))).toBe("NOT_FOUND");
  });

  it.each([
    [{ schedule: "0 24 * * *" }, "INVALID_INPUT", /^schedule: hour field "24" is out of range 0-23$/],
    [{ schedule: "* * * * * *" }, "INVALID_INPUT", /^schedule: expected 5 fields/],
    [{ schedule: "@daily" }, "INVALID_INPUT", /^schedule: macros/],
    [{ schedule: "* * * * *", timezone: "Nowhere/Land" }, "INVALID_INPUT", /^timezone: "Nowhere\/Land"/],
    [{ schedule: "* * * * *", endTime: "2001-01-01T00:00:00Z" }, "INVALID_INPUT", /^end_time: .* is not in the future$/],
    [{ schedule: "* * * * *", webhook: "mailto:x@y.z" }, "INVALID_INPUT", /webhook must be an http\(s\) URL/],
    [{ schedule: "* * * * *", assistantId: UNKNOWN_ID }, "NOT_FOUND", /No assistant found for/],
    [{ schedule: "* * * * *", threadId: UNKNOWN_ID }, "NOT_FOUND", /Thread .* not found/],
  ])("refuses %j with %s and creates nothing", async (fields, code, message) => {
    const before = await cronCount();
    const result = await executeOperation(server, CreateCronDocument, { input: { assistantId: "echo", ...fields } });
    expect(errorCode(result)).toBe(code);
    expect(result.errors?.[0]?.message).toMatch(message);
    expect(await cronCount()).toBe(before);
  });

  it("a refused update changes nothing", async () => {
    const { createCron } = await executeOk(server, CreateCronDocument, { input: { assistantId: "echo", schedule: "0 3 * * *" } });
    const result = await executeOperation(server, UpdateCronDocument, { input: { cronId: createCron.cron.cronId, schedule: "0 3 * * 8", enabled: false } });
    expect(errorCode(result)).toBe("INVALID_INPUT");
    expect(result.errors?.[0]?.message).toMatch(/^schedule: day-of-week field "8" is out of range 0-7$/);
    const { cron } = await executeOk(server, GetCronDocument, { cronId: createCron.cron.cronId });
    expect(cron).toMatchObject({ schedule: "0 3 * * *", enabled: true, nextRunAt: createCron.cron.nextRunAt });
  });
});
