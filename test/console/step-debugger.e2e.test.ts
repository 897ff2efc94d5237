import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { saveScreenshot, useConsoleBrowser } from "./browser-helpers.js";

/**
 * The graph's step view and the chat's branches (issue 29) in headless Chromium against a real
 * server. `pipeline` runs plan → research (a subgraph: search → summarize) → write, each node
 * writing "<name> done" to `notes`; `agent` is the example chat graph on its offline model.
 * Screenshots at desktop and 420 px go to test-artifacts/console/.
 */

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures");
const NARROW = { width: 420, height: 880 };
const DESKTOP = { width: 1360, height: 880 };

const fixture = useConsoleBrowser({ server: { configPath: path.join(fixtures, "debugger.langgraph.json") }, screenshotPrefix: "debugger" });

// Page updates wait on the server (a history read after each node): generous under a loaded CI machine.
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });
const graphView = () => fixture.page.getByTestId("graph-view").first();
const graphNode = (id: string) => graphView().locator(`[data-node-id="${id}"]`);
const stepPosition = () => fixture.page.getByTestId("step-position");
const nodeRun = (node: string) => fixture.page.locator(`[data-testid="node-run"][data-node="${node}"]`).first();
const highlightedNodes = () =>
  graphView()
    .locator("[data-node-id][data-highlighted]")
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-node-id")));

/** Runs pipeline from the Test page and waits for its last step; returns the thread id. */
async function runPipeline({ stepMs = 150, whileRunning = async () => {} } = {}): Promise<string> {
  const { page, server } = fixture;
  await page.setViewportSize(DESKTOP);
  await page.goto(`${server.url}/console/playground?assistant=pipeline`);
  await graphNode("plan").waitFor();
  await page.getByText("Run options").click();
  await page.getByLabel("Send the message box as raw JSON input").check();
  await page.getByLabel("Context for these runs").fill(JSON.stringify({ step_ms: stepMs }));
  await page.getByLabel("Message", { exact: true }).fill('{"topic": "graphs"}');
  await page.keyboard.press("Enter");
  await page.waitForURL(/thread=/);
  await whileRunning();
  // The run's end settles the page: its last step closed, the history read again.
  await page.locator('[data-testid="run-status"][data-status="success"]').waitFor({ timeout: 30_000 });
  await poll(() => stepPosition().textContent()).toBe("Step 3 of 3");
  return new URL(page.url()).searchParams.get("thread")!;
}

describe("graph mode, step by step", () => {
  it("scrubs a 3-step run and shows each node's input, output and duration, subgraph steps inside their parent", async () => {
    const { page } = fixture;
    await runPipeline({
      stepMs: 1500,
      // During the run: plan's step is done, research's is shown as not finished yet.
      whileRunning: async () => {
        await graphNode("research").and(page.locator('[data-state="active"]')).waitFor();
        await poll(() => stepPosition().textContent()).toBe("Step 2 of 2");
        expect(await nodeRun("research").locator(".node-run-header").textContent()).toContain("not finished");
        expect(await nodeRun("research").getByText("None yet.").count()).toBe(1);
        await saveScreenshot(page, "79-steps-during-run");
      },
    });
    // The newest step is shown: write ran in it.
    expect(await highlightedNodes()).toEqual(["write"]);
    await poll(() => nodeRun("write").textContent()).toContain("write done");

    await page.getByRole("button", { name: "Previous step" }).click();
    expect(await stepPosition().textContent()).toBe("Step 2 of 3");
    expect(await highlightedNodes()).toEqual(["research"]);
    await page.getByLabel("Step", { exact: true }).fill("1");
    expect(await stepPosition().textContent()).toBe("Step 1 of 3");
    expect(await highlightedNodes()).toEqual(["plan"]);
    const plan = nodeRun("plan");
    // Its output is the update it wrote; its input is the state before its step (the run's input).
    expect(await plan.getByLabel(/^Output of plan/).textContent()).toContain('"plan done"');
    await plan.getByText("Input (state before the step)").click();
    const planInput = JSON.parse((await plan.getByLabel(/^Input of plan/).textContent()) ?? "null") as unknown;
    expect(planInput).toEqual({ topic: "graphs", notes: [] });
    // Each node waits 150 ms: its step took at least that.
    expect(await plan.locator(".node-run-header").textContent()).toMatch(/step 1 · (\d{3,} ms|\d+\.\d+ s)/);
    await saveScreenshot(page, "80-steps-plan");

    // A click on a node shows every run of it; the subgraph's own steps open inside it.
    await graphNode("research").click();
    await page.getByText("research ran once").waitFor();
    const research = nodeRun("research");
    expect(await research.getByLabel(/^Output of research/).textContent()).toContain('"summarize done"');
    await research.getByText("Subgraph steps of research").click();
    const inner = research.getByTestId("subgraph-steps");
    await inner.locator('[data-node="summarize"]').waitFor();
    expect(await inner.locator("[data-testid=node-run]").evaluateAll((runs) => runs.map((run) => run.getAttribute("data-node")))).toEqual([
      "search",
      "summarize",
    ]);
    expect(await inner.locator('[data-node="search"]').getByLabel(/^Output of search/).textContent()).toContain('"search done"');
    expect(await highlightedNodes()).toEqual(["research"]);
    await saveScreenshot(page, "81-steps-subgraph");
    await page.emulateMedia({ colorScheme: "dark" });
    await saveScreenshot(page, "81-steps-subgraph-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize(NARROW);
    await research.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
    await saveScreenshot(page, "82-steps-subgraph-narrow");
    await page.setViewportSize(DESKTOP);
  });

  it("steps through a thread's run on the thread page", async () => {
    const { page, server } = fixture;
    const threadId = await runPipeline();
    await page.goto(`${server.url}/console/threads/${threadId}`);
    await poll(() => stepPosition().textContent()).toBe("Step 3 of 3");
    await graphNode("write").click();
    await page.getByText("write ran once").waitFor();
    expect(await nodeRun("write").getByLabel(/^Output of write/).textContent()).toContain('"write done"');
    expect(await highlightedNodes()).toEqual(["write"]);
    await nodeRun("write").scrollIntoViewIfNeeded();
    await saveScreenshot(page, "83-steps-thread-page");
    await page.setViewportSize(NARROW);
    await nodeRun("write").scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
    await saveScreenshot(page, "84-steps-thread-page-narrow");
    await page.setViewportSize(DESKTOP);
  });
});

describe("branches in the chat", () => {
  const transcript = () => fixture.page.getByRole("log", { name: "Conversation" });
  const userMessages = () => transcript().locator("article.message-user .message-text").allTextContents();
  const switcher = () => transcript().getByTestId("branch-switcher");
  // The offline model's reply quotes the system prompt, then the last user message.
  const reply = (question: string) => new RegExp(`^Echo from offline-echo .*: ${question}$`);

  it("edits an earlier message, re-runs from before it, and switches between the two branches", async () => {
    const { page, server } = fixture;
    await page.setViewportSize(DESKTOP);
    await page.goto(`${server.url}/console/playground?assistant=agent`);
    const composer = page.getByLabel("Message", { exact: true });
    await composer.fill("first question");
    await page.keyboard.press("Enter");
    await transcript().getByText(reply("first question")).waitFor();
    await composer.fill("second question");
    await page.keyboard.press("Enter");
    await transcript().getByText(reply("second question")).waitFor();
    await poll(() => transcript().getByRole("button", { name: "Edit" }).count()).toBe(2);
    expect(await switcher().count()).toBe(0);

    await transcript().getByRole("button", { name: "Edit" }).first().click();
    await page.getByLabel("Edited message").fill("edited question");
    await page.getByRole("button", { name: "Save and re-run" }).click();
    // The re-run streams its reply into the chat (threadEvents), on the new branch only.
    await transcript().getByText(reply("edited question")).waitFor();
    await poll(userMessages).toEqual(["edited question"]);
    await poll(() => switcher().textContent()).toContain("2/2");
    await saveScreenshot(page, "85-chat-branch-edited");

    await switcher().getByRole("button", { name: "Previous version" }).click();
    await poll(userMessages).toEqual(["first question", "second question"]);
    expect(await switcher().textContent()).toContain("1/2");
    await transcript().getByText(reply("second question")).waitFor();
    await page.setViewportSize(NARROW);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
    await saveScreenshot(page, "86-chat-branch-original-narrow");
    await page.setViewportSize(DESKTOP);

    // A message sent on the shown branch continues it (a fork from its tip).
    await composer.fill("third question");
    await page.keyboard.press("Enter");
    await transcript().getByText(reply("third question")).waitFor();
    await poll(userMessages).toEqual(["first question", "second question", "third question"]);
    // The versions follow once the thread's history is read again after the run.
    await poll(() => switcher().textContent()).toContain("1/2");
    await switcher().getByRole("button", { name: "Next version" }).click();
    await poll(userMessages).toEqual(["edited question"]);
    expect(await switcher().textContent()).toContain("2/2");
    expect(fixture.pageErrors).toEqual([]);
  });
});
