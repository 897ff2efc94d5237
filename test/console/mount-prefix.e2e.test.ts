import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURE_DEPLOYMENT } from "../helpers/test-server.js";
import { saveScreenshot, useConsoleBrowser } from "./browser-helpers.js";

/**
 * The console under langgraph.json `http.mount_prefix` ("/api", test/fixtures/mount-prefix): one
 * build serves any prefix, so its assets, its client routes, its GraphQL URL and its graphql-ws
 * socket must all find the prefix at run time.
 */
const fixture = useConsoleBrowser({
  server: { configPath: path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "mount-prefix/langgraph.json") },
  screenshotPrefix: "mount-prefix",
});

describe("the web console under a mount prefix", () => {
  it("loads under the prefix, lists assistants, navigates under it and streams a run over graphql-ws", async () => {
    const { page, server, pageErrors } = fixture;
    const failedRequests: string[] = [];
    page.on("response", (response) => {
      if (response.status() >= 400) failedRequests.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${server.url}/api/`);
    await page.getByRole("heading", { level: 1, name: "Assistants" }).waitFor();
    await page.getByRole("link", { name: "echo", exact: true }).waitFor();
    await saveScreenshot(page, "60-mount-prefix-assistants");

    await page.getByRole("link", { name: "Threads" }).first().click();
    await page.waitForURL(`${server.url}/api/console/threads`);
    await page.getByRole("heading", { level: 1, name: "Threads" }).waitFor();

    // A deep link loads too (its assets resolve under the prefix at any depth), and a run streams.
    await page.goto(`${server.url}/api/console/playground?assistant=echo`);
    const composer = page.getByLabel("Message", { exact: true });
    await composer.fill("hello under a prefix");
    await composer.press("Enter");
    await page.getByRole("log").getByText("echo: hello under a prefix").waitFor();
    await page.locator('[data-testid="run-status"][data-status="success"]').waitFor();
    await saveScreenshot(page, "61-mount-prefix-playground");
    expect(failedRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
