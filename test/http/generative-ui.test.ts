import path from "node:path";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, saveScreenshot } from "../console/browser-helpers.js";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";

// langgraph.json `ui`: components bundled at start and served under /ui, rendered in a real
// browser by the SDK's LoadExternalComponent, as an app using LangGraph's generative UI would.
const fixtures = path.dirname(FIXTURE_DEPLOYMENT);
const UI_DEPLOYMENT = path.join(fixtures, "ui/langgraph.json");

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
  server = await startTestServer({ configPath: UI_DEPLOYMENT });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("generative UI", () => {
  it("answers the SDK's getComponent with HTML that loads the bundle and its stylesheet", async () => {
    const html = await server.client["~ui"].getComponent("echo", "weather-card");
    const origin = server.url;
    expect(html).toContain(`<link rel="stylesheet" href="${origin}/ui/echo/`);
    expect(html).toMatch(new RegExp(`<script src="${origin}/ui/echo/[^"]+\\.js" onload='__LGUI_echo\\.render\\("weather-card", "\\{\\{shadowRootId\\}\\}"\\)'></script>`));
    const script = /src="([^"]+)"/.exec(html)![1]!;
    const bundle = await fetch(script);
    expect(bundle.headers.get("content-type")).toMatch(/javascript/);
    expect(await bundle.text()).toContain('Symbol.for("LGUI_REQUIRE")');
    await expect(server.client["~ui"].getComponent("nothing", "none")).rejects.toMatchObject({ status: 404 });
    expect((await fetch(`${origin}/ui/echo/missing.js`)).status).toBe(404);
  });

  it("renders a component in headless Chromium through LoadExternalComponent", async () => {
    const page = await browser.newPage();
    try {
      await page.setContent(`<html><body><div id="root"></div><script>${await pageBundle(server.url)}</script></body></html>`);
      const card = page.locator("#root").locator(".weather-card");
      await card.waitFor({ timeout: 15_000 });
      expect(await card.textContent()).toBe("Weather for Paris");
      // The component's CSS reached its shadow root.
      expect(await card.evaluate((element) => getComputedStyle(element).borderTopColor)).toBe("rgb(10, 120, 200)");
      await saveScreenshot(page, "30-generative-ui");
    } finally {
      await page.close();
    }
  }, 60_000);

  it("stops start-up naming the file of a ui entry that does not bundle", async () => {
    await expect(startTestServer({ configPath: path.join(fixtures, "ui/broken.langgraph.json") })).rejects.toThrow(
      /ui\.echo: "\.\/missing-component\.tsx".*does not bundle/,
    );
  });
});

/** A React page that renders one external component from `apiUrl` with the SDK's LoadExternalComponent. */
async function pageBundle(apiUrl: string): Promise<string> {
  const entry = `
    import { createElement } from "react";
    import { createRoot } from "react-dom/client";
    import { Client } from "@langchain/langgraph-sdk";
    // Importing react-ui provides React and the SDK to the bundles (LGUI_REQUIRE).
    import { LoadExternalComponent } from "@langchain/langgraph-sdk/react-ui";
    const stream = { client: new Client({ apiUrl: ${JSON.stringify(apiUrl)} }), assistantId: "echo" };
    const message = { id: "ui-1", type: "ui", name: "weather-card", props: { city: "Paris" } };
    createRoot(document.getElementById("root")).render(createElement(LoadExternalComponent, { stream, message }));
  `;
  const result = await build({
    stdin: { contents: entry, resolveDir: process.cwd(), loader: "tsx" },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text.replaceAll("</script>", "<\\/script>");
}

