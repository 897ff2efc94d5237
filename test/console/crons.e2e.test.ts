import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { makeCronsDue } from "../helpers/sql.js";
import type { TestServer } from "../helpers/test-server.js";
import { saveScreenshot, useConsoleBrowser } from "./browser-helpers.js";

/**
 * The console's Crons page in a real browser against a real server: list, create (with the
 * schedule preview), pause and delete, each checked through the REST API with the official SDK.
 * The browser runs in Europe/Berlin, so "the browser's zone" and UTC are different choices.
 */

const VIEWPORT = { width: 1360, height: 880 };
const BROWSER_ZONE = "Europe/Berlin";

const fixture = useConsoleBrowser({ contextOptions: { timezoneId: BROWSER_ZONE }, viewport: VIEWPORT, screenshotPrefix: "crons" });
let server: TestServer;
let page: Page;
let pageErrors: string[];

beforeAll(() => {
  ({ server, page, pageErrors } = fixture);
});

/** The preview's firings once it has settled: the instants and the text each shows. */
async function settledFirings() {
  const preview = page.locator('[data-testid="schedule-preview"][aria-busy="false"]');
  await preview.locator("li").first().waitFor();
  const times = preview.locator("li time.firing-time");
  return { instants: await times.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("datetime"))), texts: await times.allTextContents() };
}

async function cronsOnServer() {
  return (await server.client.crons.search({ limit: 100 })) as Array<Awaited<ReturnType<TestServer["client"]["crons"]["search"]>>[number] & { timezone: string }>;
}

describe("the console's crons page", () => {
  let threadId: string;
  let createdCronId: string;

  it("lists a cron made through the API, linked to its thread", async () => {
    const thread = await server.client.threads.create();
    threadId = thread.thread_id;
    const cron = await server.client.crons.createForThread(threadId, "echo", { schedule: "*/15 * * * *", input: { messages: [{ role: "user", content: "ping" }] } });
    // Fire it now rather than at its slot, so the list has a last run to show.
    await makeCronsDue(server.database, [cron.cron_id]);
    await expect
      .poll(async () => (await server.client.runs.list(threadId)).map((run) => run.status), { timeout: 15_000 })
      .toEqual(["success"]);
    await page.goto(`${server.url}/console/crons`);
    await page.getByRole("heading", { level: 1, name: "Crons" }).waitFor();
    // The navigation entry is no longer marked as coming soon.
    expect(await page.getByRole("link", { name: "Crons" }).textContent()).toBe("Crons");
    const row = page.getByTestId("cron-table").locator("tbody tr");
    await row.getByText("*/15 * * * *").waitFor();
    expect(await row.getByRole("link", { name: threadId.slice(0, 8) }).getAttribute("href")).toBe(`/console/threads/${threadId}`);
    // The last run links to the thread it ran on.
    expect(await row.getByRole("link", { name: "success" }).getAttribute("href")).toBe(`/console/threads/${threadId}`);
  });

  it("shows a stateless cron's last firing after its run and thread are deleted, with a failure's message", async () => {
    const ok = await server.client.crons.create("echo", { schedule: "7 7 * * *", input: { messages: [{ role: "user", content: "ping" }] } });
    const failing = await server.client.crons.create("failing", { schedule: "8 8 * * *", input: { messages: [{ role: "user", content: "boom" }] } });
    await makeCronsDue(server.database, [ok.cron_id, failing.cron_id]);
    await expect
      .poll(async () => {
        const crons = (await server.client.crons.search({ limit: 100 })) as Array<{ cron_id: string; last_firing?: { status: string } | null }>;
        return [ok.cron_id, failing.cron_id].map((id) => crons.find((cron) => cron.cron_id === id)?.last_firing?.status);
      }, { timeout: 15_000 })
      .toEqual(["success", "error"]);
    await page.goto(`${server.url}/console/crons`);
    await page.getByRole("columnheader", { name: "Last firing" }).waitFor();
    const okRow = page.getByTestId("cron-table").locator("tbody tr", { hasText: "7 7 * * *" });
    const okFiring = okRow.getByTestId("last-firing");
    await okFiring.getByText("success").waitFor();
    // Its thread is gone: the status links to the run's trace instead.
    expect(await okFiring.getByRole("link", { name: "success" }).getAttribute("href")).toMatch(/^\/console\/traces\//);
    const failedFiring = page.getByTestId("cron-table").locator("tbody tr", { hasText: "8 8 * * *" }).getByTestId("last-firing");
    await failedFiring.getByText("error", { exact: true }).waitFor();
    await failedFiring.getByText(/the fixture graph failed on purpose/).waitFor();
    await saveScreenshot(page, "crons-last-firing");
    await server.client.crons.delete(ok.cron_id);
    await server.client.crons.delete(failing.cron_id);
  });

  it("creates a cron: five firings previewed in the chosen zone, a bad schedule refused by field", async () => {
    await page.getByRole("button", { name: "New cron" }).click();
    const dialog = page.getByRole("dialog", { name: "New cron" });
    const zones = await dialog.getByLabel("Time zone").locator("option").evaluateAll((options) => options.slice(0, 2).map((option) => (option as HTMLOptionElement).value));
    expect(zones).toEqual([BROWSER_ZONE, "UTC"]);
    expect(await dialog.getByLabel("Time zone").inputValue()).toBe(BROWSER_ZONE);

    // The default schedule, weekdays at 9:00, read in Berlin.
    await dialog.getByRole("heading", { name: `Next 5 firings in ${BROWSER_ZONE}` }).waitFor();
    const berlin = await settledFirings();
    expect(berlin.texts).toHaveLength(5);
    for (const text of berlin.texts) expect(text).toMatch(/^(Mon|Tue|Wed|Thu|Fri) \d{4}-\d{2}-\d{2} 09:00 GMT\+[12]$/);

    await dialog.getByLabel("Time zone").selectOption("America/New_York");
    await dialog.getByRole("heading", { name: "Next 5 firings in America/New_York" }).waitFor();
    await expect.poll(async () => (await settledFirings()).instants).not.toEqual(berlin.instants);
    const newYork = await settledFirings();
    expect(newYork.texts).toHaveLength(5);
    for (const text of newYork.texts) expect(text).toMatch(/ 09:00 E[SD]T$/);
    // The server read the schedule in each zone: 09:00 is 07:00 or 08:00 UTC in Berlin, 13:00 or 14:00 in New York.
    const utcHours = (instants: Array<string | null>) => new Set(instants.map((iso) => new Date(iso!).getUTCHours()));
    expect([...utcHours(berlin.instants)].every((hour) => hour === 7 || hour === 8)).toBe(true);
    expect([...utcHours(newYork.instants)].every((hour) => hour === 13 || hour === 14)).toBe(true);

    const schedule = dialog.getByLabel("Schedule");
    const create = dialog.getByRole("button", { name: "Create cron" });
    await schedule.fill("61 * * * *");
    await dialog.getByText('minute field "61" is out of range 0-59').waitFor();
    expect(await schedule.getAttribute("aria-invalid")).toBe("true");
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByText("Fix the schedule to see when it fires.").waitFor();

    await schedule.fill("30 7 * * *");
    await dialog.getByLabel("Assistant").selectOption({ label: "agent (agent v1)" });
    await dialog.getByLabel("When a firing's run ends").selectOption("KEEP");
    await dialog.getByLabel("Input").fill(JSON.stringify({ messages: [{ role: "user", content: "Morning report" }] }, null, 2));
    await dialog.getByLabel("End time (optional)").fill("2030-01-01T00:00");
    const settled = await settledFirings();
    expect(settled.texts).toHaveLength(5);
    for (const text of settled.texts) expect(text).toMatch(/ 07:30 E[SD]T$/);
    expect(await create.isEnabled()).toBe(true);
    await saveScreenshot(page, "14-crons-create");

    await create.click();
    await dialog.waitFor({ state: "detached" });
    const row = page.getByTestId("cron-table").locator("tbody tr", { hasText: "30 7 * * *" });
    await row.waitFor();
    createdCronId = (await row.getAttribute("data-cron-id"))!;
    expect(await row.getByTestId("cron-timezone").textContent()).toBe("America/New_York");
    await row.getByRole("link", { name: "agent" }).waitFor();
    await row.getByText("stateless").waitFor();
    await row.getByText("keeps threads").waitFor();
    await row.getByText(/^in \d+ (min|h)$/).waitFor();

    const created = (await cronsOnServer()).find((cron) => cron.cron_id === createdCronId);
    expect(created).toMatchObject({
      schedule: "30 7 * * *",
      timezone: "America/New_York",
      thread_id: null,
      on_run_completed: "keep",
      enabled: true,
      // Midnight on New Year's Day in New York (EST, UTC-5).
      end_time: "2030-01-01T05:00:00.000Z",
      payload: expect.objectContaining({ input: { messages: [{ role: "user", content: "Morning report" }] } }),
    });
    await saveScreenshot(page, "15-crons-list");
  });

  it("pauses and resumes a cron with its switch", async () => {
    const row = page.locator(`tr[data-cron-id="${createdCronId}"]`);
    const toggle = row.getByRole("switch");
    await toggle.click();
    await row.getByText("paused").waitFor();
    expect(await toggle.isChecked()).toBe(false);
    expect((await cronsOnServer()).find((cron) => cron.cron_id === createdCronId)).toMatchObject({ enabled: false, next_run_date: null });
    await toggle.click();
    await row.getByText(/^in \d+ (min|h)$/).waitFor();
    expect((await cronsOnServer()).find((cron) => cron.cron_id === createdCronId)?.enabled).toBe(true);
  });

  it("deletes a cron after asking", async () => {
    const row = page.locator(`tr[data-cron-id="${createdCronId}"]`);
    await row.getByRole("button", { name: "Delete cron 30 7 * * *" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete this cron?" });
    await confirm.getByText("fires no more").waitFor();
    await confirm.getByRole("button", { name: "Delete cron" }).click();
    await confirm.waitFor({ state: "detached" });
    await row.waitFor({ state: "detached" });
    const remaining = await cronsOnServer();
    expect(remaining.map((cron) => cron.cron_id)).not.toContain(createdCronId);
    expect(remaining.map((cron) => cron.schedule)).toEqual(["*/15 * * * *"]);
  });

  it("pages through more crons than fit on one page", async () => {
    await Promise.all(Array.from({ length: 50 }, (_, index) => server.client.crons.create("echo", { schedule: `${index} 3 1 1 *` })));
    await page.reload();
    const pager = page.getByRole("navigation", { name: "Pages" });
    await pager.getByText("1–50 of 51").waitFor();
    expect(await page.getByTestId("cron-table").locator("tbody tr").count()).toBe(50);
    await pager.getByRole("button", { name: "Next →" }).click();
    await pager.getByText("51–51 of 51").waitFor();
    // Newest first: the cron made through the API before these fifty is the one left for page two.
    await page.getByTestId("cron-table").locator("tbody tr").getByText("*/15 * * * *").waitFor();
    expect(await pager.getByRole("button", { name: "Next →" }).isDisabled()).toBe(true);
    await pager.getByRole("button", { name: "← Previous" }).click();
    await pager.getByText("1–50 of 51").waitFor();
  });

  it("ran without errors in the page", () => {
    expect(pageErrors).toEqual([]);
  });
});
