import { Client } from "langsmith";
import { RunTree } from "langsmith/run_trees";
import { beforeAll, describe, expect, it } from "vitest";
import { saveScreenshot, useConsoleBrowser } from "./browser-helpers.js";

// The console's Prices page: the price table, and repricing stored traces after a price change
// (counted first in a confirmation, then applied).
const fixture = useConsoleBrowser({ screenshotPrefix: "prices", contextOptions: { timezoneId: "UTC" } });
let llmRunId = "";

async function graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`${fixture.server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data as T;
}

const totalCostOf = async (traceRunId: string) =>
  (await graphql<{ traceRun: { cost: { totalCost: string | null } } }>(`query ($id: ID!) { traceRun(traceRunId: $id) { cost { totalCost } } }`, { id: traceRunId })).traceRun.cost
    .totalCost;

/** datetime-local's value in the page's time zone (UTC here). */
const localInput = (at: Date) => at.toISOString().slice(0, 16);

beforeAll(async () => {
  const client = new Client({ apiUrl: `${fixture.server.url}/tracing`, autoBatchTracing: false, callerOptions: { maxRetries: 0 } });
  const start = Date.now() - 10 * 60_000;
  const root = new RunTree({ name: "support-agent", run_type: "chain", inputs: {}, client, start_time: start });
  await root.postRun();
  const llm = root.createChild({ name: "ChatOpenAI", run_type: "llm", start_time: start + 100, metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" }, inputs: { messages: [] } });
  await llm.postRun();
  const usage = { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 };
  await llm.end({ choices: [{ message: { role: "assistant", content: "ok" } }], usage }, undefined, start + 900);
  await llm.patchRun();
  await root.end({}, undefined, start + 1000);
  await root.patchRun();
  llmRunId = llm.id;
});

describe("the console's Prices page", () => {
  it("lists the price table and reprices a range after a price change, counting first", async () => {
    const { page, server } = fixture;
    // The seeded list price of gpt-4o-mini: 0.15 / 0.60 per 1M tokens.
    expect(await totalCostOf(llmRunId)).toBe("0.00045");
    // A new price, in effect from an hour ago: stored traces keep their cost until repriced.
    await graphql(`mutation ($input: CreateModelPriceInput!) { createModelPrice(input: $input) { modelPrice { id } } }`, {
      input: {
        modelName: "gpt-4o-mini (renegotiated)",
        matchPattern: "^gpt-4o-mini$",
        inputPrice: "1.00",
        outputPrice: "2.00",
        effectiveFrom: new Date(Date.now() - 60 * 60_000).toISOString(),
      },
    });
    expect(await totalCostOf(llmRunId)).toBe("0.00045");

    await page.goto(`${server.url}/console/prices`);
    const table = page.getByTestId("price-table");
    await table.getByText("gpt-4o-mini (renegotiated)").waitFor();
    expect(await page.getByRole("link", { name: "Prices", exact: true }).getAttribute("aria-current")).toBe("page");

    await page.getByLabel("Reprice from").fill(localInput(new Date(Date.now() - 2 * 60 * 60_000)));
    await page.getByLabel("Reprice to").fill(localInput(new Date(Date.now() + 60 * 60_000)));
    await page.getByRole("button", { name: "Reprice traces…" }).click();
    const preview = page.getByTestId("reprice-preview");
    await preview.waitFor();
    // 1000 × 1.00 + 500 × 2.00 per 1M tokens = 0.002, up 0.00155.
    expect(await preview.textContent()).toMatch(/^1 LLM run of 1 in this range changes cost \(\+\$0\.001\d+\)/);
    // Counting changed nothing.
    expect(await totalCostOf(llmRunId)).toBe("0.00045");
    await saveScreenshot(page, "prices-reprice-confirm");

    await page.getByRole("button", { name: "Reprice 1 run" }).click();
    await page.getByTestId("reprice-result").getByText("Repriced: 1 run changed of 1").waitFor();
    expect(await totalCostOf(llmRunId)).toBe("0.002");
    expect(fixture.pageErrors).toEqual([]);
  });
});
