import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { BUILT_CONSOLE_DIR, launchChromium, saveScreenshot, watchPageErrors } from "./browser-helpers.js";

/**
 * The console while the server is away: a page left open and idle shows "Disconnected from the
 * server — retrying" once the server stops, retries without filling the browser's console, and
 * drops the banner once a server answers again on the same port (then reads its page again).
 */

const DESKTOP = { width: 1360, height: 880 };
const NARROW = { width: 420, height: 880 };

let database: TestDatabase;
let server: TestServer | null = null;
let browser: Browser;
let page: Page;
let pageErrors: string[];

function startServer(port = "0"): Promise<TestServer> {
  // The database outlives each server (it is not the server's own): a restart finds its threads.
  return startTestServer({ database, env: { HANGAR_CONSOLE_DIR: BUILT_CONSOLE_DIR, PORT: port } });
}

beforeAll(async () => {
  browser = await launchChromium();
  database = await createTestDatabase();
  server = await startServer();
  page = await (await browser.newContext({ viewport: DESKTOP, colorScheme: "light" })).newPage();
  page.setDefaultTimeout(10_000);
  pageErrors = watchPageErrors(page);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await database?.retire();
});

describe("the disconnected state", () => {
  it("shows a banner while the server is away and drops it once the server is back on the same port", async () => {
    const first = server!;
    const port = new URL(first.url).port;
    await first.client.threads.create({ metadata: { purpose: "outage" } });
    const banner = page.getByTestId("disconnected");
    await page.goto(`${first.url}/console/threads`);
    await page.getByRole("heading", { name: "Threads" }).waitFor();
    await page.locator("tbody tr").first().waitFor();
    expect(await banner.count()).toBe(0);

    // The page is idle: nothing but the liveness probe notices.
    await first.close();
    server = null;
    await banner.waitFor();
    expect(await banner.textContent()).toBe("Disconnected from the server — retrying");
    await saveScreenshot(page, "90-disconnected");
    await page.setViewportSize(NARROW);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
    await saveScreenshot(page, "91-disconnected-narrow");
    await page.setViewportSize(DESKTOP);

    // Retries back off to one every 5 s: each failed request is one line in the browser's console.
    const errorsAtOutage = pageErrors.length;
    await page.waitForTimeout(8_000);
    const errorsDuringOutage = pageErrors.slice(errorsAtOutage);
    console.log(`browser console errors: ${errorsAtOutage} before and ${errorsDuringOutage.length} during 8 s of outage`);
    expect(errorsDuringOutage.length).toBeLessThanOrEqual(5);
    expect(errorsDuringOutage.every((line) => line.includes("ERR_CONNECTION_REFUSED"))).toBe(true);

    server = await startServer(port);
    expect(server.url).toBe(first.url);
    await banner.waitFor({ state: "detached" });
    // Back: the page reads its data again and works as before.
    await page.locator("tbody tr").first().waitFor();
    await page.getByRole("link", { name: "Assistants" }).click();
    await page.getByRole("heading", { name: "Assistants" }).waitFor();
    expect(await banner.count()).toBe(0);
  }, 60_000);
});
