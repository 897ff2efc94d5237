import { Client } from "langsmith";
import { RunTree } from "langsmith/run_trees";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { CreateModelPriceDocument, GetTraceRunDocument, RepriceTracesDocument, UpdateModelPriceDocument } from "./generated/graphql.js";
import { errorCode, executeOk, executeOperation } from "./helpers.js";

// Tiered, dated prices on a running server: runs sent with the langsmith SDK are priced per call
// (tier by input size and service tier), keep their costs when prices change, and change only
// when an operator reprices their range.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

/** One llm run of `model` through the langsmith SDK; `outputs` extra fields ride on the response. */
async function ingestLlmRun(model: string, startTime: string, input: number, extraOutputs: Record<string, unknown> = {}) {
  const client = new Client({ apiUrl: `${server.url}/tracing`, apiKey: "unused", autoBatchTracing: false, callerOptions: { maxRetries: 0 } });
  const run = new RunTree({
    name: "tiered-llm",
    run_type: "llm",
    client,
    start_time: Date.parse(startTime),
    inputs: { messages: [{ role: "user", content: "hi" }] },
    metadata: { ls_model_name: model },
  });
  await run.postRun();
  await run.end(
    { role: "assistant", content: "ok", usage_metadata: { input_tokens: input, output_tokens: 1000, total_tokens: input + 1000 }, ...extraOutputs },
    undefined,
    Date.parse(startTime) + 1000,
  );
  await run.patchRun();
  return run.id;
}

async function costOf(traceRunId: string) {
  const { cost } = (await executeOk(server, GetTraceRunDocument, { traceRunId })).traceRun;
  return { total: cost?.totalCost, tier: cost?.priceTier, serviceTier: cost?.serviceTier, source: cost?.source };
}

const tiers = [
  { name: "long context", inputTokensAbove: 10_000, inputPrice: "2", outputPrice: "4" },
  { name: "flex", serviceTier: "flex", inputPrice: "0.5", outputPrice: "1" },
  { name: "flex long context", serviceTier: "flex", inputTokensAbove: 10_000, inputPrice: "1", outputPrice: "2" },
];

describe("tiered prices and repricing", () => {
  it("prices each call by its tier, keeps stored costs through price changes, and reprices on request", async () => {
    const { createModelPrice } = await executeOk(server, CreateModelPriceDocument, {
      input: { modelName: "tiered-7b", matchPattern: "^tiered-7b$", inputPrice: "1", outputPrice: "2", tiers, asOf: "2026-11-26", sourceUrl: "https://example.com/prices" },
    });
    expect(createModelPrice.modelPrice).toMatchObject({
      asOf: "2026-11-26",
      sourceUrl: "https://example.com/prices",
      tiers: [
        { name: "long context", condition: { inputTokensAbove: 10_000, serviceTier: null }, inputPrice: "2", outputPrice: "4" },
        { name: "flex", condition: { inputTokensAbove: null, serviceTier: "flex" } },
        { name: "flex long context", condition: { inputTokensAbove: 10_000, serviceTier: "flex" } },
      ],
    });
    const day = "2025-10-01";
    const standard = await ingestLlmRun("tiered-7b", `${day}T06:00:00Z`, 1000);
    const long = await ingestLlmRun("tiered-7b", `${day}T07:00:00Z`, 20_000);
    // OpenAI reports the tier that served the call on the response (wrapOpenAI's outputs carry it).
    const flex = await ingestLlmRun("tiered-7b", `${day}T18:00:00Z`, 1000, { service_tier: "flex" });
    const flexLong = await ingestLlmRun("tiered-7b", `${day}T19:00:00Z`, 20_000, { service_tier: "flex" });
    // OpenRouter's usage.cost is what the provider charged: explicit, never repriced.
    const charged = await ingestLlmRun("tiered-7b", `${day}T20:00:00Z`, 1000, {
      usage: { prompt_tokens: 1000, completion_tokens: 1000, total_tokens: 2000, cost: 0.0042 },
    });
    expect(await costOf(standard)).toEqual({ total: "0.003", tier: null, serviceTier: null, source: "PRICE_TABLE" });
    expect(await costOf(long)).toEqual({ total: "0.044", tier: "long context", serviceTier: null, source: "PRICE_TABLE" });
    expect(await costOf(flex)).toEqual({ total: "0.0015", tier: "flex", serviceTier: "flex", source: "PRICE_TABLE" });
    expect(await costOf(flexLong)).toEqual({ total: "0.022", tier: "flex long context", serviceTier: "flex", source: "PRICE_TABLE" });
    expect(await costOf(charged)).toEqual({ total: "0.0042", tier: null, serviceTier: null, source: "EXPLICIT" });

    // A later price from noon on: stored runs keep their costs until an operator reprices.
    await executeOk(server, CreateModelPriceDocument, {
      input: { modelName: "tiered-7b", matchPattern: "^tiered-7b$", inputPrice: "10", outputPrice: "20", effectiveFrom: `${day}T12:00:00Z` },
    });
    await executeOk(server, UpdateModelPriceDocument, {
      input: { modelPriceId: createModelPrice.modelPrice.modelPriceId, tiers: [tiers[0]!], outputPrice: "3" },
    });
    expect(await costOf(flex)).toMatchObject({ total: "0.0015", tier: "flex" });
    expect(await costOf(long)).toMatchObject({ total: "0.044" });

    const range = { from: `${day}T00:00:00Z`, to: "2025-10-02T00:00:00Z", model: "tiered-7b" };
    // The console's confirmation: counted, nothing written.
    const preview = await executeOk(server, RepriceTracesDocument, { input: { ...range, dryRun: true } });
    // standard: 0.001 + 0.003 = 0.004 (+0.001); long: unchanged (0.044); flex and flex long: the noon row (10/20),
    // 0.03 (+0.0285) and 0.22 (+0.198); the explicit cost is not a candidate.
    const expected = { repricedRuns: 4, changedRuns: 3, costDelta: "0.2275" };
    expect(preview.repriceTraces).toEqual({ ...expected, dryRun: true });
    expect(await costOf(standard)).toMatchObject({ total: "0.003" });

    const repriced = await executeOk(server, RepriceTracesDocument, { input: range });
    expect(repriced.repriceTraces).toEqual({ ...expected, dryRun: false });
    expect(await costOf(standard)).toEqual({ total: "0.004", tier: null, serviceTier: null, source: "PRICE_TABLE" });
    expect(await costOf(long)).toEqual({ total: "0.044", tier: "long context", serviceTier: null, source: "PRICE_TABLE" });
    expect(await costOf(flex)).toEqual({ total: "0.03", tier: null, serviceTier: "flex", source: "PRICE_TABLE" });
    expect(await costOf(flexLong)).toEqual({ total: "0.22", tier: null, serviceTier: "flex", source: "PRICE_TABLE" });
    expect(await costOf(charged)).toMatchObject({ total: "0.0042", source: "EXPLICIT" });

    // Nothing left to change: a second reprice counts the runs and changes none.
    const again = await executeOk(server, RepriceTracesDocument, { input: range });
    expect(again.repriceTraces).toEqual({ repricedRuns: 4, changedRuns: 0, costDelta: "0", dryRun: false });
    // Another model's name selects nothing.
    const other = await executeOk(server, RepriceTracesDocument, { input: { ...range, model: "gpt-4o" } });
    expect(other.repriceTraces).toMatchObject({ repricedRuns: 0, changedRuns: 0 });
  });

  it("refuses overlapping tiers and a second row of the same pattern and date, naming them", async () => {
    const overlapping = await executeOperation(server, CreateModelPriceDocument, {
      input: { modelName: "overlap", matchPattern: "^overlap$", inputPrice: "1", outputPrice: "1", tiers: tiers.slice(0, 2) },
    });
    expect(errorCode(overlapping)).toBe("INVALID_INPUT");
    expect(overlapping.errors?.[0]?.message).toMatch(/tiers 'long context' and 'flex' overlap/);

    const noCondition = await executeOperation(server, CreateModelPriceDocument, {
      input: { modelName: "overlap", matchPattern: "^overlap$", inputPrice: "1", outputPrice: "1", tiers: [{ name: "always", inputPrice: "1", outputPrice: "1" }] },
    });
    expect(errorCode(noCondition)).toBe("INVALID_INPUT");
    expect(noCondition.errors?.[0]?.message).toMatch(/tiers\[0\]\.condition needs/);

    const first = { modelName: "dated", matchPattern: "^dated$", inputPrice: "1", outputPrice: "1", effectiveFrom: "2026-01-01T00:00:00Z" };
    await executeOk(server, CreateModelPriceDocument, { input: first });
    const twin = await executeOperation(server, CreateModelPriceDocument, { input: { ...first, inputPrice: "2" } });
    expect(errorCode(twin)).toBe("INVALID_INPUT");
    expect(twin.errors?.[0]?.message).toMatch(/same match_pattern, provider and effective_from/);
  });
});
