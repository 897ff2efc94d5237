import { randomUUID } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { saveScreenshot, useConsoleBrowser } from "./browser-helpers.js";

/**
 * The web console in a real browser against a real server: the flows people use it for, each
 * ending in a screenshot under test-artifacts/console/. The console is built from the current
 * sources first (into a temporary directory), so a stale dist/web cannot make this pass or fail.
 */

const API_KEY = "console-e2e-key";
// A 24×24 checkerboard PNG, for a message image.
const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAALklEQVR42mPQj76Mhm42aaMhYtQwjBpER4PI04apZtQgeho0mrJH89qoQXQxCACVSz+OiaNReQAAAABJRU5ErkJggg==";
const VIEWPORT = { width: 1360, height: 880 };

const fixture = useConsoleBrowser({ viewport: VIEWPORT, screenshotPrefix: "console" });
let server: TestServer;
let browser: Browser;
let page: Page;
let pageErrors: string[];

// The console's graphql-ws frames, both ways, for what its test chat subscribes to.
const socketFrames: { sent: string[]; received: string[] } = { sent: [], received: [] };

beforeAll(() => {
  ({ server, browser, page, pageErrors } = fixture);
  page.on("websocket", (socket) => {
    socket.on("framesent", (frame) => socketFrames.sent.push(String(frame.payload)));
    socket.on("framereceived", (frame) => socketFrames.received.push(String(frame.payload)));
  });
});

const heading = (text: string) => page.getByRole("heading", { level: 1, name: text });

/** The URL's last path segment (an id) once the page has navigated to a path matching `pattern`. */
async function idFromUrl(pattern: RegExp): Promise<string> {
  await page.waitForURL(pattern);
  return new URL(page.url()).pathname.split("/").at(-1)!;
}

async function graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await server.request("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data: T; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data;
}

// A browser, a server and PostgreSQL share the machine: on a loaded one a flow takes over the
// default 30 s (33 s seen at a load average of 24 on 2 cores).
describe("the web console", { timeout: 90_000 }, () => {
  let assistantId: string;
  let agentThreadId: string;

  it("lists assistants and creates one, checking the context against the graph's schema", async () => {
    await page.goto(`${server.url}/`);
    await heading("Assistants").waitFor();
    await page.getByRole("link", { name: "agent", exact: true }).waitFor();
    await saveScreenshot(page, "01-assistants-list");

    await page.getByRole("button", { name: "New assistant" }).click();
    const dialog = page.getByRole("dialog", { name: "New assistant" });
    await dialog.getByLabel("Graph").selectOption("agent");
    const contextField = dialog.getByLabel("Context");
    // The agent graph's defaults are filled in from its context schema.
    expect(JSON.parse(await contextField.inputValue())).toEqual({ model_name: "offline-echo", system_prompt: "You are a helpful assistant." });

    await contextField.fill('{\n  "model_name": "offline-echo",\n  system_prompt: 1\n}');
    await dialog.getByText("Invalid JSON").waitFor();
    expect(await dialog.getByText(/line 3, column 3/).count()).toBe(1);
    await contextField.fill('{"model_name": 3, "temperature": 0.2}');
    await dialog.getByText("model_name must be a string, not the number 3").waitFor();
    await dialog.getByText("temperature is not allowed (known: model_name, system_prompt)").waitFor();
    expect(await dialog.getByRole("button", { name: "Create assistant" }).isDisabled()).toBe(true);
    await saveScreenshot(page, "02-assistant-editor-validation");

    await contextField.fill(JSON.stringify({ model_name: "offline-echo", system_prompt: "You are terse." }, null, 2));
    await dialog.getByLabel("Name").fill("Support bot");
    await dialog.getByLabel("Description").fill("Answers support questions.");
    await dialog.getByRole("button", { name: "Create assistant" }).click();
    assistantId = await idFromUrl(/\/console\/assistants\/[0-9a-f-]{36}$/);
    await heading("Support bot").waitFor();
    expect(await page.getByTestId("active-version").textContent()).toBe("v1 active");
  });

  it("saves an edit as version 2, shows the diff between versions, and sets version 1 back", async () => {
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Support bot" });
    await dialog.getByLabel("Context").fill(JSON.stringify({ model_name: "offline-echo", system_prompt: "You are verbose." }, null, 2));
    await dialog.getByLabel("Metadata").fill('{"team": "support"}');
    await dialog.getByRole("button", { name: "Save as version 2" }).click();
    await page.getByTestId("active-version").getByText("v2 active").waitFor();

    const diff = page.getByTestId("version-diff");
    await diff.getByText("context.system_prompt").waitFor();
    expect(await diff.getByLabel("old value").first().textContent()).toBe('"You are terse."');
    expect(await diff.getByLabel("new value").first().textContent()).toBe('"You are verbose."');
    await diff.getByText("metadata.team").waitFor();
    await diff.scrollIntoViewIfNeeded();
    await saveScreenshot(page, "03-assistant-version-diff");

    await page.getByRole("button", { name: "Make version 1 active" }).click();
    await page.getByTestId("active-version").getByText("v1 active").waitFor();
    const { assistant } = await graphql<{ assistant: { version: number; context: Record<string, unknown> } }>(
      "query($id: ID!) { assistant(assistantId: $id) { version context } }",
      { id: assistantId },
    );
    expect(assistant).toEqual({ version: 1, context: { model_name: "offline-echo", system_prompt: "You are terse." } });
  });

  it("chats in the test environment: the answer's tokens stream in through threadEvents over graphql-ws", async () => {
    await page.getByRole("link", { name: "Chat with it" }).click();
    await heading("Test environment").waitFor();
    expect(await page.getByLabel("Assistant", { exact: true }).inputValue()).toBe(assistantId);
    const composer = page.getByLabel("Message", { exact: true });
    await composer.fill("hello hangar");
    await composer.press("Enter");

    const answer = 'Echo from offline-echo (system prompt: "You are terse."): hello hangar';
    await page.getByRole("log").getByText(answer).waitFor();
    const status = page.getByTestId("run-status");
    await page.locator('[data-testid="run-status"][data-status="success"]').waitFor();
    // The offline model sends one chunk per word: more than one means it really streamed.
    const chunks = Number((await status.getByTestId("streamed-chunks").textContent())?.split(" ")[0]);
    expect(chunks).toBeGreaterThan(5);
    agentThreadId = new URL(page.url()).searchParams.get("thread")!;
    expect(agentThreadId).toMatch(/^[0-9a-f-]{36}$/);
    // The chat subscribed to its thread's protocol v2 events, and the tokens came as text deltas.
    const subscribed = socketFrames.sent
      .map((frame) => JSON.parse(frame) as { type: string; payload: { query: string; variables: { threadId?: string } } })
      .filter((frame) => frame.type === "subscribe");
    expect(subscribed.map((frame) => [frame.payload.query.match(/threadEvents|runEvents/)?.[0], frame.payload.variables.threadId])).toEqual([
      ["threadEvents", agentThreadId],
    ]);
    const deltas = socketFrames.received
      .map((frame) => JSON.parse(frame) as { payload?: { data?: { threadEvents?: { method: string; data: { event?: string; delta?: { text: string } } } } } })
      .map((frame) => frame.payload?.data?.threadEvents)
      .filter((event) => event?.method === "messages" && event.data.event === "content-block-delta");
    expect(deltas.length).toBe(chunks);
    expect(deltas.map((event) => event!.data.delta!.text).join("")).toBe(answer);
    await status.getByText("tokens").waitFor();
    await saveScreenshot(page, "05-test-environment-finished");
  });

  it("shows a slow run mid-way; a second message is refused under reject, interrupts it under interrupt; a reload re-attaches; cancel stops a run", async () => {
    await page.getByLabel("Assistant", { exact: true }).selectOption({ label: "slow (slow v1)" });
    await page.getByText("Run options").click();
    // The first run must still be going when the interrupting message arrives: between them the
    // page sends a refused message and switches the strategy, which outlasted 700 ms steps at a
    // load average of 25, and 4 s steps at 24 (both runs then showed "third done"). Its steps are
    // longer than any such wait (it is interrupted, so they cost nothing); the interrupting run
    // itself is quick (it only has to finish).
    const context = page.getByLabel("Context for these runs");
    await context.fill('{"step_ms": 60000}');
    const composer = page.getByLabel("Message", { exact: true });
    await composer.fill("take your time");
    await composer.press("Enter");
    await page.getByRole("log").getByText("take your time").waitFor();
    await page.locator('[data-testid="run-status"][data-status="running"]').waitFor();
    await saveScreenshot(page, "04-test-environment-mid-run");

    await composer.fill("are you there?");
    await composer.press("Enter");
    await page.getByRole("alert").getByText("THREAD_BUSY").waitFor();

    await page.getByLabel("When a run is already active").selectOption("INTERRUPT");
    await context.fill('{"step_ms": 100}');
    await composer.fill("change of plans");
    await composer.press("Enter");
    await page.getByRole("log").getByText("change of plans").waitFor();
    await page.locator('[data-testid="run-status"][data-status="success"]').waitFor();
    await page.getByRole("log").getByText("third done").waitFor();
    const slowThreadId = new URL(page.url()).searchParams.get("thread")!;
    const statuses = async () => {
      const { thread } = await graphql<{ thread: { runs: { edges: Array<{ node: { status: string } }> } } }>(
        "query($id: ID!) { thread(threadId: $id) { runs { edges { node { status } } } } }",
        { id: slowThreadId },
      );
      return thread.runs.edges.map((edge) => edge.node.status);
    };
    expect(await statuses()).toEqual(["SUCCESS", "INTERRUPTED"]);

    // Slow enough to outlast a page reload on any machine (it is cancelled): the reloaded page
    // re-attaches to the running run.
    await context.fill('{"step_ms": 60000}');
    await composer.fill("never mind");
    await composer.press("Enter");
    await page.locator('[data-testid="run-status"][data-status="running"]').waitFor();
    await page.reload();
    await page.getByRole("log").getByText("never mind").waitFor();
    await page.locator('[data-testid="run-status"][data-status="running"]').waitFor();
    await page.getByRole("button", { name: "Cancel run" }).click();
    await page.locator('[data-testid="run-status"][data-status="interrupted"]').waitFor();
    expect(await statuses()).toEqual(["INTERRUPTED", "SUCCESS", "INTERRUPTED"]);
    // The reload folded the run options away; the next test edits them.
    if (!(await page.getByLabel("Context for these runs").isVisible())) await page.getByText("Run options").click();
  });

  it("stops at interrupt() and resumes with the answer typed in", async () => {
    await page.getByLabel("Assistant", { exact: true }).selectOption({ label: "interrupting (interrupting v1)" });
    await page.getByLabel("Context for these runs").fill("");
    const composer = page.getByLabel("Message", { exact: true });
    await composer.fill("may I?");
    await composer.press("Enter");
    const panel = page.getByTestId("interrupt-panel");
    await panel.getByText('"approve?"').waitFor();
    // The run itself succeeded; the thread waits for the answer.
    await page.locator('[data-testid="run-status"][data-status="success"]').getByText("waiting at interrupt()").waitFor();
    await saveScreenshot(page, "06-test-environment-interrupt");
    await panel.getByLabel("Resume with").fill("yes");
    await panel.getByRole("button", { name: "Resume" }).click();
    await page.getByRole("log").getByText("approved: yes").waitFor();
    await page.locator('[data-testid="run-status"][data-status="success"]').waitFor();
    expect(await panel.count()).toBe(0);
  });

  it("shows a thread's state, runs and checkpoint history", async () => {
    await page.goto(`${server.url}/console/threads`);
    await page.getByRole("link", { name: agentThreadId }).click();
    await page.getByRole("heading", { name: "Runs" }).waitFor();
    await page.getByRole("log").getByText("hello hangar", { exact: true }).waitFor();
    const checkpoints = page.getByRole("heading", { name: "Checkpoints" }).locator("..").locator(".checkpoint");
    await checkpoints.first().waitFor();
    expect(await checkpoints.count()).toBeGreaterThanOrEqual(3);
    await saveScreenshot(page, "07-thread-detail", { fullPage: true });
    await checkpoints.first().getByRole("button").click();
    await page.getByLabel(/Values at checkpoint/).waitFor();
  });

  it("opens the run's trace with rendered messages, tokens and cost", async () => {
    const { thread } = await graphql<{
      thread: { runs: { edges: Array<{ node: { runId: string; usage: { totalTokens: number }; cost: { totalCost: string } } }> } };
    }>("query($id: ID!) { thread(threadId: $id) { runs { edges { node { runId usage { totalTokens } cost { totalCost } } } } } }", {
      id: agentThreadId,
    });
    const run = thread.runs.edges[0].node;
    expect(run.usage.totalTokens).toBeGreaterThan(0);
    expect(Number(run.cost.totalCost)).toBeGreaterThan(0);

    await page.getByRole("link", { name: "Trace", exact: true }).first().click();
    await page.waitForURL(new RegExp(`/console/traces/${run.runId}`));
    expect(await page.getByTestId("trace-total-tokens").textContent()).toBe(String(run.usage.totalTokens));
    expect(await page.getByTestId("trace-total-cost").textContent()).toMatch(/^\$0\.0000\d+$/);

    const rendered = page.getByTestId("rendered-messages");
    await rendered.getByText("You are terse.", { exact: true }).waitFor();
    await rendered.getByText("hello hangar", { exact: true }).waitFor();
    await rendered.getByText(/^Echo from offline-echo/).waitFor();
    const usage = page.getByTestId("usage-breakdown");
    await usage.getByText("from the model price table").waitFor();
    await page.getByTestId("model-calls").getByText("offline-echo").first().waitFor();
    await saveScreenshot(page, "08-trace-detail", { fullPage: true });
  });

  it("renders an ingested model call's system, user, image, tool-call and tool messages", async () => {
    // A LangSmith-style trace in OpenAI's format, as an instrumented app would send it.
    const rootId = randomUUID();
    const callId = randomUUID();
    const started = new Date(Date.now() - 2000);
    const at = (ms: number) => new Date(started.getTime() + ms).toISOString();
    const post = (run: Record<string, unknown>) =>
      server.request("/tracing/runs", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(run) });
    const posted = await Promise.all([
      post({ id: rootId, trace_id: rootId, name: "weather-agent", run_type: "chain", start_time: at(0), end_time: at(900), inputs: {}, outputs: {} }),
      post({
        id: callId,
        trace_id: rootId,
        parent_run_id: rootId,
        name: "ChatOpenAI",
        run_type: "llm",
        start_time: at(100),
        end_time: at(800),
        extra: { metadata: { ls_provider: "openai", ls_model_name: "gpt-4o-mini" } },
        inputs: {
          messages: [
            { role: "system", content: "You are a weather bot." },
            {
              role: "user",
              content: [
                { type: "text", text: "What is in this picture, and is it sunny in Paris?" },
                { type: "image_url", image_url: { url: `data:image/png;base64,${TINY_PNG}` } },
              ],
            },
            {
              role: "assistant",
              content: null,
              tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
            },
            { role: "tool", tool_call_id: "call_1", content: "18°C and sunny" },
          ],
        },
        outputs: {
          choices: [{ message: { role: "assistant", content: "A checkerboard. Paris: 18°C and sunny." } }],
          usage: { prompt_tokens: 1200, completion_tokens: 80, total_tokens: 1280 },
        },
      }),
    ]);
    expect(posted.map((response) => response.status)).toEqual([202, 202]);

    await page.goto(`${server.url}/console/traces/${rootId}?run=${callId}`);
    const rendered = page.getByTestId("rendered-messages");
    await rendered.getByText("You are a weather bot.").waitFor();
    await rendered.getByRole("img").waitFor();
    expect(await rendered.getByRole("img").getAttribute("src")).toBe(`data:image/png;base64,${TINY_PNG}`);
    await rendered.getByText("calls get_weather").waitFor();
    await rendered.getByText("answers call_1").waitFor();
    await rendered.getByText("A checkerboard. Paris: 18°C and sunny.").waitFor();
    const usage = page.getByTestId("usage-breakdown");
    await usage.getByText("1,280").waitFor();
    await saveScreenshot(page, "09-trace-detail-tool-calls-and-image", { fullPage: true });
  });

  it("lists traces with latency, tokens and cost under a cost-by-model chart, in light and dark", async () => {
    await page.getByRole("link", { name: "← Traces" }).click();
    const table = page.getByTestId("trace-table");
    await table.getByRole("link", { name: "agent" }).first().waitFor();
    const chart = page.getByTestId("cost-chart");
    await chart.getByRole("list", { name: "Cost by model" }).getByText("offline-echo").waitFor();
    expect(await chart.getByTestId("total-cost").textContent()).toMatch(/^\$0\.\d+$/);
    expect(await chart.locator("rect").count()).toBeGreaterThan(0);
    await chart.getByRole("list", { name: "Cost by model" }).getByText("gpt-4o-mini").waitFor();
    await saveScreenshot(page, "10-trace-list-and-cost-chart");

    await page.getByRole("button", { name: /^Theme:/ }).click(); // system → light
    await page.getByRole("button", { name: /^Theme:/ }).click(); // light → dark
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await saveScreenshot(page, "11-trace-list-dark");
    await page.goto(`${server.url}/console/assistants`);
    await heading("Assistants").waitFor();
    await saveScreenshot(page, "12-assistants-list-dark");
  });

  it("works from the keyboard: / searches, ? lists the keys, Esc closes dialogs, g t goes to threads", async () => {
    await page.keyboard.press("/");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Search assistants by name");
    await page.keyboard.type("support");
    await page.getByRole("link", { name: "agent", exact: true }).waitFor({ state: "detached" });
    await page.getByRole("link", { name: "Support bot" }).waitFor();

    await page.locator("main").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("?");
    await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor({ state: "detached" });

    await page.getByRole("button", { name: "New assistant" }).click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("assistant-graph");
    await page.keyboard.press("Escape");
    await page.getByRole("dialog", { name: "New assistant" }).waitFor({ state: "detached" });

    await page.keyboard.press("g");
    await page.keyboard.press("t");
    await heading("Threads").waitFor();
  });

  it("ran without errors in the page", () => {
    expect(pageErrors).toEqual([]);
  });
});

describe("the web console with API keys", () => {
  it("asks for a key, refuses a wrong one, keeps the right one for the session and streams with it", async () => {
    const protectedServer = await startTestServer({ apiKeys: [API_KEY], env: { HANGAR_CONSOLE_DIR: fixture.consoleDirectory } });
    const keyContext = await browser.newContext({ viewport: VIEWPORT, colorScheme: "dark" });
    try {
      const keyPage = await keyContext.newPage();
      keyPage.setDefaultTimeout(10_000);
      await keyPage.goto(`${protectedServer.url}/`);
      const prompt = keyPage.getByRole("dialog", { name: "API key required" });
      await prompt.waitFor();
      await saveScreenshot(keyPage, "13-api-key-prompt");

      await prompt.getByLabel("API key").fill("not-the-key");
      await prompt.getByRole("button", { name: "Continue" }).click();
      await prompt.getByText("That key was refused").waitFor();
      await prompt.getByLabel("API key").fill(API_KEY);
      await prompt.getByRole("button", { name: "Continue" }).click();
      await prompt.waitFor({ state: "detached" });
      await keyPage.getByRole("link", { name: "echo", exact: true }).waitFor();

      const stored = await keyPage.evaluate(() => ({ session: sessionStorage.getItem("hangar.apiKey"), local: JSON.stringify(localStorage) }));
      expect(stored.session).toBe(API_KEY);
      expect(stored.local).not.toContain(API_KEY);

      // The run's events come over graphql-ws, authenticated by connectionParams.
      await keyPage.goto(`${protectedServer.url}/console/playground?assistant=echo`);
      const composer = keyPage.getByLabel("Message", { exact: true });
      await composer.fill("hi over a socket");
      await composer.press("Enter");
      await keyPage.getByRole("log").getByText("echo: hi over a socket").waitFor();
      await keyPage.locator('[data-testid="run-status"][data-status="success"]').waitFor();
      expect(await keyPage.getByRole("dialog", { name: "API key required" }).count()).toBe(0);
    } finally {
      await keyContext.close();
      await protectedServer.close();
    }
  }, 60_000);
});
