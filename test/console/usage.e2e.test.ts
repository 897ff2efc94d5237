import { Client } from "langsmith";
import { RunTree } from "langsmith/run_trees";
import { beforeAll, describe, expect, it } from "vitest";
import { saveScreenshot, useConsoleBrowser } from "./browser-helpers.js";

// The console's Usage page: roll-ups of what the langsmith client recorded, and the most expensive traces.
const fixture = useConsoleBrowser({ screenshotPrefix: "usage" });
const traceIds: Record<string, string> = {};

/** A chain root with one gpt-4o-mini or gpt-4o call under it; the root's metadata reaches the call. */
async function sendTrace(client: Client, name: string, minutesAgo: number, metadata: Record<string, string>, model: string, scale: number) {
  const start = Date.now() - minutesAgo * 60_000;
  const root = new RunTree({ name, run_type: "chain", inputs: {}, client, start_time: start, metadata });
  await root.postRun();
  const llm = root.createChild({ name: "ChatOpenAI", run_type: "llm", start_time: start + 100, metadata: { ls_model_name: model, ls_provider: "openai" }, inputs: { messages: [] } });
  await llm.postRun();
  const usage = { prompt_tokens: 1000 * scale, completion_tokens: 500 * scale, total_tokens: 1500 * scale };
  await llm.end({ choices: [{ message: { role: "assistant", content: "ok" } }], usage }, undefined, start + 900);
  await llm.patchRun();
  await root.end({}, undefined, start + 1000);
  await root.patchRun();
  traceIds[name] = root.trace_id;
}

beforeAll(async () => {
  const client = new Client({ apiUrl: `${fixture.server.url}/tracing`, autoBatchTracing: false, callerOptions: { maxRetries: 0 } });
  // gpt-4o 1000/500: $0.0075; gpt-4o-mini 1000/500: $0.00045, 2000/1000: $0.0009.
  await sendTrace(client, "refund-agent", 30, { thread_id: "thread-refunds", user_id: "alice" }, "gpt-4o", 1);
  await sendTrace(client, "faq-agent", 20, { thread_id: "thread-faq", user_id: "alice" }, "gpt-4o-mini", 1);
  await sendTrace(client, "faq-agent-2", 10, { thread_id: "thread-faq", user_id: "bob" }, "gpt-4o-mini", 2);
});

const tableRows = async () => {
  const rows = fixture.page.getByTestId("usage-rollup").locator("tbody tr");
  return Promise.all((await rows.all()).map(async (row) => (await row.locator("th, td").allTextContents()).map((cell) => cell.trim())));
};

describe("the console's Usage page", () => {
  it("is reached with g u, rolls up by model, most expensive first, and lists the most expensive traces", async () => {
    const { page, server } = fixture;
    await page.goto(`${server.url}/console/traces`);
    await page.locator("main h1").getByText("Traces").waitFor();
    await page.keyboard.press("g");
    await page.keyboard.press("u");
    await page.waitForURL(/\/console\/usage$/);
    await page.getByTestId("usage-rollup").waitFor();
    expect(await page.getByRole("link", { name: "Usage", exact: true }).getAttribute("aria-current")).toBe("page");
    expect(await tableRows()).toEqual([
      ["gpt-4o", "1", "1,000", "500", "1,500", "$0.0075"],
      ["gpt-4o-mini", "2", "3,000", "1,500", "4,500", "$0.0014"],
      ["(none)", "3", "0", "0", "0", "$0"],
    ]);
    await page.getByText("3 groups, 6 runs.").waitFor();

    const expensive = page.getByTestId("expensive-traces").locator("li");
    expect(await expensive.locator("a").allTextContents()).toEqual(["refund-agent", "faq-agent-2", "faq-agent"]);
    expect(await expensive.first().textContent()).toMatch(/\$0\.0075.*2 runs · 1,500 tokens/);
    await saveScreenshot(page, "usage-by-model", { fullPage: true });
    await expensive.first().locator("a").click();
    await page.waitForURL(new RegExp(`/console/traces/${traceIds["refund-agent"]}$`));
    await page.goBack();
    await page.getByTestId("usage-rollup").waitFor();
  });

  it("groups by thread and by a metadata key's values", async () => {
    const { page } = fixture;
    const groupBy = page.getByLabel("Group by");
    await groupBy.selectOption("THREAD");
    await page.getByTestId("usage-rollup").getByText("thread-refunds").waitFor();
    expect((await tableRows()).map((row) => [row[0], row[1], row[5]])).toEqual([
      ["thread-refunds", "2", "$0.0075"],
      ["thread-faq", "4", "$0.0014"],
    ]);
    await groupBy.selectOption("METADATA");
    const key = page.getByRole("textbox", { name: "Metadata key" });
    expect(await key.inputValue()).toBe("user_id");
    await page.getByTestId("usage-rollup").getByText("alice").waitFor();
    expect((await tableRows()).map((row) => [row[0], row[1], row[5]])).toEqual([
      ["alice", "4", "$0.008"],
      ["bob", "2", "$0.0009"],
    ]);
    await page.getByText("2 groups, 6 runs.").waitFor();
    // A key no run has: every run in one "(none)" group.
    await key.fill("tenant");
    await page.getByTestId("usage-rollup").getByText("(none)").waitFor();
    expect((await tableRows()).map((row) => [row[0], row[1]])).toEqual([["(none)", "6"]]);
    await page.getByText("1 group, 6 runs.").waitFor();
    await key.fill("user_id");
    await page.getByTestId("usage-rollup").getByText("alice").waitFor();
  });

  it("narrows to a time range: the last 24 hours hold every trace, a custom range before them none", async () => {
    const { page } = fixture;
    await page.getByLabel("Time").selectOption("custom");
    await page.getByLabel("From", { exact: true }).fill("2020-01-01T00:00");
    await page.getByLabel("To", { exact: true }).fill("2020-01-02T00:00");
    await page.getByText("No runs in this period").waitFor();
    await page.getByText("No traces started in this period.").waitFor();
    await page.getByLabel("Time").selectOption("24h");
    await page.getByTestId("usage-rollup").getByText("alice").waitFor();
  });

  it("combines two groupings: per thread per model, and per model per metadata value", async () => {
    const { page } = fixture;
    const headers = () => page.getByTestId("usage-rollup").locator("thead th").allTextContents();
    await page.getByLabel("Group by").selectOption("THREAD");
    const thenBy = page.getByLabel("Then by");
    // The first grouping is not offered again.
    expect(await thenBy.locator("option").allTextContents()).not.toContain("Thread / session");
    await thenBy.selectOption("MODEL");
    await page.getByRole("heading", { name: "By thread and model" }).waitFor();
    await page.getByTestId("usage-rollup").getByText("gpt-4o-mini").waitFor();
    expect((await headers()).slice(0, 3)).toEqual(["Thread", "Model", "Runs"]);
    // Each LLM call under its thread; the chain roots (no model) in a group of their own per thread.
    expect((await tableRows()).map((row) => [row[0], row[1], row[2], row[6]])).toEqual([
      ["thread-refunds", "gpt-4o", "1", "$0.0075"],
      ["thread-faq", "gpt-4o-mini", "2", "$0.0014"],
      ["thread-faq", "(none)", "2", "$0"],
      ["thread-refunds", "(none)", "1", "$0"],
    ]);
    await page.getByText("4 groups, 6 runs.").waitFor();

    // Model then a metadata key: the key is asked for, and names its column.
    await page.getByLabel("Group by").selectOption("MODEL");
    await thenBy.selectOption("METADATA");
    expect(await page.getByRole("textbox", { name: "Metadata key" }).inputValue()).toBe("user_id");
    await page.getByRole("heading", { name: "By model and user_id" }).waitFor();
    await page.getByTestId("usage-rollup").getByText("bob").first().waitFor();
    expect((await headers()).slice(0, 2)).toEqual(["Model", "user_id"]);
    expect((await tableRows()).map((row) => [row[0], row[1], row[2]])).toEqual([
      ["gpt-4o", "alice", "1"],
      ["gpt-4o-mini", "bob", "1"],
      ["gpt-4o-mini", "alice", "1"],
      ["(none)", "alice", "2"],
      ["(none)", "bob", "1"],
    ]);
    await saveScreenshot(page, "usage-by-model-and-user", { fullPage: true });

    // Choosing the second grouping as the first drops the second: one grouping again.
    await page.getByLabel("Group by").selectOption("METADATA");
    expect(await thenBy.inputValue()).toBe("");
    await page.getByRole("heading", { name: "By user_id" }).waitFor();
    await page.getByText("2 groups, 6 runs.").waitFor();
    expect(fixture.pageErrors).toEqual([]);
  });

  it("fits 420 px without sideways scrolling, in light and dark", async () => {
    const { page } = fixture;
    await page.setViewportSize({ width: 420, height: 880 });
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await page.getByTestId("usage-rollup").waitFor();
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      const table = await page.getByTestId("usage-rollup").evaluate((element) => ({ scroll: element.parentElement!.scrollWidth, client: element.parentElement!.clientWidth }));
      expect(table.scroll).toBeLessThanOrEqual(table.client);
      await saveScreenshot(page, `usage-420px-${colorScheme}`, { fullPage: true });
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1360, height: 880 });
    expect(fixture.pageErrors).toEqual([]);
  });
});
