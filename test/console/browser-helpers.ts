import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { startTestServer, type TestServer, type TestServerOptions } from "../helpers/test-server.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Where the browser tests leave their screenshots (gitignored), for people to look at. */
export const ARTIFACTS_DIR = path.join(repositoryRoot, "test-artifacts/console");

/** CHROMIUM_PATH, else Debian's /usr/bin/chromium, else the first chromium on PATH. */
function findChromium(): string | null {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  const candidates = ["/usr/bin/chromium", ...(process.env.PATH ?? "").split(path.delimiter).flatMap((dir) => [
    path.join(dir, "chromium"),
    path.join(dir, "chromium-browser"),
  ])];
  return candidates.find((candidate) => fs.existsSync(candidate)) ?? null;
}

/**
 * The console built from the current sources: the test run's global setup rebuilds dist/web when
 * anything under web/ changed since (as `npm run build` does), so the browser tests never run
 * against a missing or stale console, and the files share one build instead of one Vite build
 * each (6-20 s apiece).
 */
export const BUILT_CONSOLE_DIR = path.join(repositoryRoot, "dist/web");

/** Headless Chromium; a missing browser fails the test run with what to install, never skips it. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath || !fs.existsSync(executablePath)) {
    throw new Error(
      `Chromium is needed for the console's browser tests but was not found (${executablePath ?? "not at /usr/bin/chromium nor on PATH"}). ` +
        "Install it (Debian/Ubuntu: apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary.",
    );
  }
  return chromium.launch({ executablePath, headless: true, args: ["--no-sandbox"] });
}

export async function saveScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  await fsp.mkdir(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), fullPage: options.fullPage ?? false, animations: "disabled" });
}

/** Collects the page's console errors and failed requests, so a test can assert there were none. */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  return errors;
}

export interface ConsoleBrowser {
  /** The console built for this file (for a second server in the same file). */
  consoleDirectory: string;
  server: TestServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** The page's console errors and failed requests so far. */
  pageErrors: string[];
}

/**
 * The shared fixture of a browser test file: starts a server serving the built console and
 * opens one page in headless Chromium (beforeAll); closes them all (afterAll); screenshots a
 * failing test's page as `failed-<prefix>-<test name>`. The returned object is filled in by
 * beforeAll, so read its fields inside tests.
 */
export function useConsoleBrowser(options: {
  server?: TestServerOptions;
  viewport?: { width: number; height: number };
  /** More options for the page's browser context (a time zone, …). */
  contextOptions?: BrowserContextOptions;
  screenshotPrefix: string;
}): ConsoleBrowser {
  const fixture = {} as ConsoleBrowser;
  beforeAll(async () => {
    // The browser first: without one there is no use starting a server.
    fixture.browser = await launchChromium();
    fixture.consoleDirectory = BUILT_CONSOLE_DIR;
    fixture.server = await startTestServer({ ...options.server, env: { ...options.server?.env, HANGAR_CONSOLE_DIR: BUILT_CONSOLE_DIR } });
    fixture.context = await fixture.browser.newContext({
      viewport: options.viewport ?? { width: 1360, height: 880 },
      colorScheme: "light",
      ...options.contextOptions,
    });
    fixture.page = await fixture.context.newPage();
    fixture.page.setDefaultTimeout(10_000);
    fixture.pageErrors = watchPageErrors(fixture.page);
  }, 120_000);
  afterAll(async () => {
    await fixture.browser?.close();
    await fixture.server?.close();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail" && fixture.page) {
      await saveScreenshot(fixture.page, `failed-${options.screenshotPrefix}-${task.name.slice(0, 40).replace(/\W+/g, "-")}`);
    }
  });
  return fixture;
}
