import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";
import { watchPageErrors } from "../console/browser-helpers.js";

// @langchain/react v1's useStream in a real page in headless Chromium against a running Hangar
// (protocol v2 over SSE and WebSocket): submit, token streaming, a tool call, an interrupt shown
// and answered, a reload mid-run that re-attaches, and a subgraph's namespace.

const here = path.dirname(fileURLToPath(import.meta.url));
let server: TestServer;
let browser: Browser;
let pageServer: http.Server;
let pageUrl: string;
let scratch: string;

/** The page bundled with esbuild (React in production mode), served by a plain HTTP server. */
async function servePage(): Promise<void> {
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), "hangar-react-page-"));
  await build({
    entryPoints: [path.resolve(here, "../fixtures/react-page/app.tsx")],
    bundle: true,
    format: "esm",
    platform: "browser",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    outfile: path.join(scratch, "app.js"),
    logLevel: "error",
  });
  await fs.writeFile(path.join(scratch, "index.html"), '<!doctype html><html><body><div id="root"></div><script type="module" src="/app.js"></script></body></html>');
  pageServer = http.createServer((request, response) => {
    const file = new URL(request.url ?? "/", "http://page").pathname === "/app.js" ? "app.js" : "index.html";
    response.setHeader("content-type", file.endsWith(".js") ? "text/javascript" : "text/html");
    void fs.readFile(path.join(scratch, file)).then((body) => response.end(body));
  });
  await new Promise<void>((resolve) => pageServer.listen(0, "127.0.0.1", resolve));
  pageUrl = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/`;
}

beforeAll(async () => {
  server = await startTestServer({ configPath: path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "protocol.langgraph.json") });
  await servePage();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => pageServer?.close(resolve));
  await fs.rm(scratch, { recursive: true, force: true });
  await server?.close();
});

async function openChat(params: Record<string, string>): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  await page.goto(`${pageUrl}?${new URLSearchParams({ api: server.url, ...params })}`);
  return { page, errors };
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId("draft").fill(text);
  await page.getByTestId("send").click();
}

const aiText = (page: Page) => page.getByTestId("message-ai").allTextContents();

describe("@langchain/react useStream against Hangar", () => {
  for (const transport of ["sse", "websocket"] as const) {
    it(`submits and shows the answer and the tool call, over ${transport}`, async () => {
      const { page, errors } = await openChat({ assistant: "tool_agent", transport });
      await send(page, "weather");
      await expect.poll(() => aiText(page)).toContain("The lookup said: found: weather");
      await expect.poll(() => page.getByTestId("loading").textContent()).toBe("idle");
      expect(await page.getByTestId("message-human").allTextContents()).toEqual(["weather"]);
      expect(await aiText(page)).toEqual(["Let me look up weather.", "The lookup said: found: weather"]);
      const toolCalls = (await page.getByTestId("tool-call").allTextContents()).map((text) => JSON.parse(text) as Record<string, unknown>);
      expect(toolCalls).toHaveLength(1);
      expect(toolCalls[0]).toMatchObject({ name: "lookup", status: "finished" });
      expect(JSON.stringify(toolCalls[0])).toContain("found: weather");
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  it("shows an interrupt and answers it (input.respond)", async () => {
    const { page, errors } = await openChat({ assistant: "interrupting", transport: "websocket" });
    await send(page, "please");
    await expect.poll(() => page.getByTestId("interrupt-value").textContent().catch(() => null)).toBe(JSON.stringify({ question: "approve?" }));
    await page.getByTestId("approve").click();
    await expect.poll(() => page.getByTestId("values").textContent()).toContain("approved: yes");
    await expect.poll(() => page.getByTestId("interrupt").count()).toBe(0);
    const threadId = (await page.getByTestId("thread").textContent())!;
    const runs = await server.client.runs.list(threadId);
    expect(runs.map((run) => run.status).sort()).toEqual(["success", "success"]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  // The model stops halfway through its answer until the test opens the gate: the page shows the
  // tokens streamed so far while the message is unfinished, and again after a reload.
  it("streams tokens into an unfinished message, and re-attaches to the run in flight after a reload without losing or repeating any", async () => {
    const gate = path.join(scratch, `gate-${Date.now()}`);
    const { page, errors } = await openChat({ assistant: "tool_agent", transport: "sse", gate });
    await send(page, "slow please");
    await expect.poll(() => aiText(page)).toEqual(["First half of a slow answer."]);
    const threadId = await page.getByTestId("thread").textContent();
    await page.reload();
    // The same thread, the run still going: the first half is back (replayed), once.
    await expect.poll(() => page.getByTestId("thread").textContent()).toBe(threadId);
    await expect.poll(() => aiText(page)).toEqual(["First half of a slow answer."]);
    await fs.writeFile(gate, "open");
    await expect.poll(() => aiText(page)).toEqual(["First half of a slow answer. Second half, after the gate."]);
    await expect.poll(() => page.getByTestId("loading").textContent()).toBe("idle");
    expect(await page.getByTestId("message-human").allTextContents()).toEqual(["slow please"]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("discovers a subgraph by its namespace", async () => {
    const { page, errors } = await openChat({ assistant: "nested", transport: "websocket", raw: "1" });
    await send(page, "{}");
    await expect.poll(() => page.getByTestId("values").textContent()).toContain("writer drafted");
    await expect.poll(() => page.getByTestId("subgraph").allTextContents()).toEqual([expect.stringMatching(/^planner planner:[0-9a-f-]+ complete$/)]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
