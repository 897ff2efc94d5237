import path from "node:path";
import { Client } from "langsmith";
import { RunTree } from "langsmith/run_trees";
import { beforeAll, describe, expect, it } from "vitest";
import { saveScreenshot, useConsoleBrowser } from "./browser-helpers.js";

/**
 * The traces pages as a developer debugging an agent uses them (issue 29): filters by tag,
 * metadata and feedback, time to first token, a zoomable waterfall, and an interrupted graph run
 * that says so. Headless Chromium against a server running the example deployment.
 */
const EXAMPLES = path.resolve(import.meta.dirname, "../../examples/langgraph.json");
const fixture = useConsoleBrowser({ server: { configPath: EXAMPLES }, screenshotPrefix: "trace-view" });
const suite = `trace-view-${Date.now()}`;
const ids = { chat: "", chatLlm: "", batch: "" };

/**
 * Two traces the langsmith client sends, started a minute ago: "chat" (tags prod, chat; ticket
 * "4711"; an LLM call 1 s in whose first token comes 250 ms after its start; judged 0.9) spanning
 * 10 s, and "batch" (tag batch; ticket 4711 as a number; judged 0.2).
 */
beforeAll(async () => {
  const client = new Client({ apiUrl: `${fixture.server.url}/tracing`, autoBatchTracing: false, callerOptions: { maxRetries: 0 } });
  const start = Date.now() - 60_000;
  const chat = new RunTree({ name: "chat", run_type: "chain", inputs: {}, client, start_time: start, tags: ["prod", "chat"], metadata: { suite, ticket: "4711" } });
  await chat.postRun();
  const llm = chat.createChild({ name: "ChatOpenAI", run_type: "llm", start_time: start + 1000, inputs: { messages: [{ role: "user", content: "hi" }] } });
  llm.addEvent({ name: "new_token", time: new Date(start + 1250).toISOString(), kwargs: { token: "He" } });
  await llm.postRun();
  await llm.end({ role: "assistant", content: "Hello" }, undefined, start + 1500);
  await llm.patchRun();
  const tool = chat.createChild({ name: "lookup_order", run_type: "tool", start_time: start + 2000, inputs: { id: 1 } });
  await tool.postRun();
  await tool.end({ status: "shipped" }, undefined, start + 9000);
  await tool.patchRun();
  await chat.end({ answer: "Hello" }, undefined, start + 10_000);
  await chat.patchRun();

  const batch = new RunTree({ name: "batch", run_type: "chain", inputs: {}, client, start_time: start + 100, tags: ["batch"], metadata: { suite, ticket: 4711 } });
  await batch.postRun();
  const batchLlm = batch.createChild({ name: "ChatOpenAI", run_type: "llm", start_time: start + 200, inputs: { messages: [] } });
  await batchLlm.postRun();
  await batchLlm.end({ role: "assistant", content: "done" }, undefined, start + 900);
  await batchLlm.patchRun();
  await batch.end({}, undefined, start + 1000);
  await batch.patchRun();

  await client.createFeedback(llm.id, "helpfulness", { score: 0.9, traceId: chat.id });
  await client.createFeedback(batchLlm.id, "helpfulness", { score: 0.2, traceId: batch.id });
  Object.assign(ids, { chat: chat.id, chatLlm: llm.id, batch: batch.id });
});

const listedNames = () => fixture.page.getByTestId("trace-table").locator("tbody tr td:first-child a").allTextContents();

describe("trace list filters", () => {
  it("narrows by tags (all or any), metadata key=value and feedback score, and shows time to first token", async () => {
    const { page, server } = fixture;
    await page.goto(`${server.url}/console/traces`);
    const filters = page.getByRole("search", { name: "Trace filters" });
    await filters.getByLabel("Metadata", { exact: true }).fill(`suite=${suite}`);
    await expect.poll(listedNames).toEqual(["batch", "chat"]);
    const chatRow = page.getByTestId("trace-table").locator("tbody tr", { hasText: "chat" });
    expect(await chatRow.getByTestId("trace-first-token").textContent()).toBe("1.25 s");

    await filters.getByLabel("Tags", { exact: true }).fill("prod chat");
    await expect.poll(listedNames).toEqual(["chat"]);
    await filters.getByLabel("Tags", { exact: true }).fill("prod batch");
    await expect.poll(listedNames).toEqual([]);
    await filters.getByLabel("Tags to match").selectOption("any");
    await expect.poll(listedNames).toEqual(["batch", "chat"]);
    await filters.getByLabel("Tags", { exact: true }).fill("");

    await filters.getByLabel("Metadata", { exact: true }).fill(`suite=${suite} ticket=4711`);
    await expect.poll(listedNames).toEqual(["batch", "chat"]);
    await filters.getByLabel("Metadata", { exact: true }).fill(`{"suite": "${suite}", "ticket": "4711"}`);
    await expect.poll(listedNames).toEqual(["chat"]);
    await filters.getByLabel("Metadata", { exact: true }).fill(`suite=${suite} ticket`);
    await page.getByText('"ticket" is not key=value').waitFor();
    expect(await filters.getByLabel("Metadata", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await filters.getByLabel("Metadata", { exact: true }).fill(`suite=${suite}`);

    await filters.getByLabel("Feedback", { exact: true }).fill("helpfulness");
    await filters.getByLabel("Lowest feedback score").fill("0.5");
    await expect.poll(listedNames).toEqual(["chat"]);
    await filters.getByLabel("Lowest feedback score").fill("");
    await filters.getByLabel("Highest feedback score").fill("0.5");
    await expect.poll(listedNames).toEqual(["batch"]);
    await saveScreenshot(page, "80-trace-filters", { fullPage: true });
    await filters.getByLabel("Highest feedback score").fill("");
    await filters.getByLabel("Feedback", { exact: true }).fill("");
    await filters.getByLabel("Metadata", { exact: true }).fill("");
    expect(fixture.pageErrors).toEqual([]);
  });
});

/** The bar of the run named `name`, in pixels. */
async function barOf(name: string) {
  const row = fixture.page.getByRole("list", { name: "Runs of this trace" }).getByRole("button", { name: new RegExp(name) });
  const box = await row.locator(".waterfall-bar").boundingBox();
  const track = await row.locator(".waterfall-bar-track").boundingBox();
  if (!box || !track) throw new Error(`no bar for ${name}`);
  return { left: box.x - track.x, width: box.width, trackWidth: track.width, track };
}

describe("the trace waterfall", () => {
  it("uses the page's width, zooms with buttons and ctrl+wheel, pans by dragging, resets, and marks the first token", async () => {
    const { page, server } = fixture;
    await page.goto(`${server.url}/console/traces/${ids.chat}?run=${ids.chatLlm}`);
    const window = page.getByTestId("waterfall-window");
    await window.getByText(/Whole trace · 10\.0+ s/).waitFor();
    expect(await page.getByTestId("trace-first-token").textContent()).toBe("1.25 s");
    await page.getByTestId("trace-run-panel").getByText("250 ms").waitFor();

    const whole = await barOf("lookup_order");
    // The timeline is half the page's width (it was a 64 px column beside the run panel).
    expect(whole.trackWidth).toBeGreaterThan(500);
    expect(whole.width / whole.trackWidth).toBeCloseTo(0.7, 2);
    // On the LLM call, and on the root (the trace's first token).
    expect(await page.locator(".waterfall-first-token").count()).toBe(2);
    await saveScreenshot(page, "81-waterfall-whole", { fullPage: true });

    await page.getByRole("button", { name: "Zoom in" }).click();
    await window.getByText("2.50 s – 7.50 s of 10.00 s").waitFor();
    const zoomed = await barOf("lookup_order");
    expect(zoomed.width).toBeGreaterThan(whole.width * 1.3);
    expect(await page.locator(".waterfall-tick").first().textContent()).toBe("3.00 s");

    // Drag the timeline left by a quarter of its width: the window moves later by a quarter of itself.
    const track = zoomed.track;
    await page.mouse.move(track.x + track.width * 0.6, track.y + track.height / 2);
    await page.mouse.down();
    await page.mouse.move(track.x + track.width * 0.45, track.y + track.height / 2, { steps: 5 });
    await page.mouse.move(track.x + track.width * 0.35, track.y + track.height / 2, { steps: 5 });
    await page.mouse.up();
    await window.getByText("3.75 s – 8.75 s of 10.00 s").waitFor();
    // The drag selected nothing: the LLM call is still the selected run.
    expect(page.url()).toContain(`run=${ids.chatLlm}`);

    // ctrl + wheel (a trackpad pinch) zooms around the pointer.
    await page.mouse.move(track.x + track.width / 2, track.y + track.height / 2);
    await page.keyboard.down("Control");
    await page.mouse.wheel(0, -200);
    await page.keyboard.up("Control");
    await expect.poll(async () => (await window.textContent()) ?? "").not.toContain("3.75 s – 8.75 s");
    await saveScreenshot(page, "82-waterfall-zoomed", { fullPage: true });

    await page.getByRole("button", { name: "Reset" }).click();
    await window.getByText(/Whole trace · 10\.0+ s/).waitFor();
    expect((await barOf("lookup_order")).width).toBeCloseTo(whole.width, 0);

    // A plain click on a row still selects it.
    await page.getByRole("list", { name: "Runs of this trace" }).getByRole("button", { name: /lookup_order/ }).click();
    await page.getByTestId("trace-run-panel").getByRole("heading", { name: "lookup_order" }).waitFor();
    expect(fixture.pageErrors).toEqual([]);
  });
});

describe("time to first token of Hangar's own graph runs", () => {
  it("comes from the streamed model call's first chunk", async () => {
    const { page, server } = fixture;
    const { thread_id: threadId } = await server.client.threads.create({ metadata: { suite } });
    let runId = "";
    for await (const chunk of server.client.runs.stream(threadId, "agent", {
      input: { messages: [{ role: "user", content: "Stream this back to me" }] },
      streamMode: "messages-tuple",
    })) {
      if (chunk.event === "metadata") runId = (chunk.data as { run_id: string }).run_id;
    }
    await page.goto(`${server.url}/console/traces/${runId}`);
    const firstToken = page.getByTestId("trace-first-token");
    await firstToken.waitFor();
    expect(await firstToken.textContent()).toMatch(/^(<1 ms|\d+ ms|\d+\.\d+ s)$/);
    await page.getByTestId("trace-run-panel").getByText("First token").waitFor();
    expect(fixture.pageErrors).toEqual([]);
  });
});

describe("an interrupted graph run", () => {
  it("reads interrupted in the trace list and on its trace, not success", async () => {
    const { page, server } = fixture;
    const { thread_id: threadId } = await server.client.threads.create({ metadata: { suite } });
    const run = await server.client.runs.create(threadId, "approval", { input: { messages: [{ role: "user", content: "Where is my parcel?" }] } });
    await server.client.runs.join(threadId, run.run_id);

    await page.goto(`${server.url}/console/traces`);
    const row = page.getByTestId("trace-table").locator("tbody tr", { has: page.locator(`a[href*="${run.run_id}"]`) });
    await row.waitFor();
    expect(await row.locator(".badge").textContent()).toBe("interrupted");

    await page.goto(`${server.url}/console/traces/${run.run_id}?run=${run.run_id}`);
    const header = page.locator(".page-header");
    await header.locator(".badge", { hasText: "interrupted" }).waitFor();
    expect(await page.getByTestId("trace-run-panel").locator(".badge").first().textContent()).toBe("interrupted");
    expect(await page.locator(".badge-good", { hasText: "success" }).count()).toBe(0);
    await saveScreenshot(page, "83-trace-root-interrupted", { fullPage: true });
    expect(fixture.pageErrors).toEqual([]);
  });
});
