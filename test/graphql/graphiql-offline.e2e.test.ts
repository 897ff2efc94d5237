import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, saveScreenshot, watchPageErrors } from "../console/browser-helpers.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// GraphiQL at /graphql on a network without egress: everything it needs comes from the server.
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("GraphiQL offline", () => {
  it("loads and runs a query with every host but the server unreachable", { timeout: 60_000 }, async () => {
    const context = await browser.newContext();
    const serverOrigin = new URL(server.url).origin;
    const blocked: string[] = [];
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(serverOrigin) || url.startsWith("blob:") || url.startsWith("data:")) return route.continue();
      blocked.push(url);
      return route.abort("internetdisconnected");
    });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    try {
      await page.goto(`${server.url}/graphql?query=${encodeURIComponent("{ __typename }")}`);
      await page.locator(".graphiql-execute-button").click({ timeout: 30_000 });
      // The result editor (Monaco) renders spaces as no-break spaces.
      const result = async () => (await page.locator(".graphiql-response").innerText()).replace(/\s+/g, " ");
      await expect.poll(result, { timeout: 30_000 }).toContain('"__typename": "Query"');
      await saveScreenshot(page, "graphiql-offline");
      expect(blocked).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
