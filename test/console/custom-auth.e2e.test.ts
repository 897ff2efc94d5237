import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";
import { signUserToken } from "../helpers/user-tokens.js";
import { BUILT_CONSOLE_DIR, launchChromium, saveScreenshot, watchPageErrors } from "./browser-helpers.js";

// The console against a deployment with custom auth (the README's JWT example): it asks for a
// user's token, sends it as a bearer token over HTTP and graphql-ws, and shows only that user's data.
const AUTH_DEPLOYMENT = path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "auth.langgraph.json");

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
  server = await startTestServer({ configPath: AUTH_DEPLOYMENT, env: { HANGAR_CONSOLE_DIR: BUILT_CONSOLE_DIR } });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function clientFor(user: string): Promise<Client> {
  return new Client({ apiUrl: server.url, defaultHeaders: { authorization: `Bearer ${await signUserToken(user)}` } });
}

describe("the web console with custom auth", () => {
  it("asks for a token, refuses a forged one, then shows only the user's threads and streams as the user", async () => {
    const aliceThread = await (await clientFor("alice")).threads.create();
    const bobThread = await (await clientFor("bob")).threads.create();
    const context = await browser.newContext({ viewport: { width: 1360, height: 880 } });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const pageErrors = watchPageErrors(page);
      await page.goto(`${server.url}/console/threads`);
      const prompt = page.getByRole("dialog", { name: "Sign-in token required" });
      await prompt.waitFor();
      await saveScreenshot(page, "20-custom-auth-token-prompt");

      await prompt.getByLabel("Access token").fill("forged.token.value");
      await prompt.getByRole("button", { name: "Continue" }).click();
      await prompt.getByText("That token was refused").waitFor();
      await prompt.getByLabel("Access token").fill(await signUserToken("alice"));
      await prompt.getByRole("button", { name: "Continue" }).click();
      await prompt.waitFor({ state: "detached" });

      await page.getByRole("link", { name: aliceThread.thread_id }).waitFor();
      expect(await page.getByRole("link", { name: bobThread.thread_id }).count()).toBe(0);
      await saveScreenshot(page, "21-custom-auth-own-threads");

      // A run streamed over graphql-ws, authenticated by the token in connectionParams.
      await page.goto(`${server.url}/console/playground?assistant=echo`);
      const composer = page.getByLabel("Message", { exact: true });
      await composer.fill("hi as alice");
      await composer.press("Enter");
      await page.getByRole("log").getByText("echo: hi as alice").waitFor();
      await page.locator('[data-testid="run-status"][data-status="success"]').waitFor();
      const threads = await (await clientFor("alice")).threads.search({ limit: 10 });
      expect(threads.every((thread) => thread.metadata?.owner === "alice")).toBe(true);
      // The 401s that opened the prompt and refused the forged token are the only errors.
      expect(pageErrors.filter((error) => !error.includes("status of 401"))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
