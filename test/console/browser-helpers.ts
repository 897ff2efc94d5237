import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { build } from "vite";
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
 * Builds the console from the current sources into a fresh temporary directory, so the browser
 * tests never run against a missing or stale dist/web. Returns the directory (for
 * HANGAR_CONSOLE_DIR) and its remover.
 */
export async function buildConsoleIntoTempDir(): Promise<{ directory: string; remove: () => Promise<void> }> {
  const directory = await fsp.mkdtemp(path.join(os.tmpdir(), "hangar-console-e2e-"));
  // Vite and the React plugin take NODE_ENV from the process when it is set, and the test runner
  // sets it to "test": without this the build would mix development JSX with production React.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({
      configFile: path.join(repositoryRoot, "web/vite.config.ts"),
      logLevel: "warn",
      build: { outDir: directory, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  return { directory, remove: () => fsp.rm(directory, { recursive: true, force: true }) };
}

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
 * The shared fixture of a browser test file: builds the console, starts a server serving it and
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
  let consoleBuild: Awaited<ReturnType<typeof buildConsoleIntoTempDir>> | undefined;
  beforeAll(async () => {
    // The browser first: without one there is nothing to build or start a server for.
    fixture.browser = await launchChromium();
    consoleBuild = await buildConsoleIntoTempDir();
    fixture.consoleDirectory = consoleBuild.directory;
    fixture.server = await startTestServer({ ...options.server, env: { ...options.server?.env, HANGAR_CONSOLE_DIR: consoleBuild.directory } });
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
    await consoleBuild?.remove();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail" && fixture.page) {
      await saveScreenshot(fixture.page, `failed-${options.screenshotPrefix}-${task.name.slice(0, 40).replace(/\W+/g, "-")}`);
    }
  });
  return fixture;
}
