import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../src/domain/errors.js";
import { createServiceContext } from "../../src/runtime.js";
import { modelPricesService } from "../../src/services/model-prices.service.js";
import type { ServiceContext } from "../../src/services/service-context.js";
import { tracesService } from "../../src/services/traces.service.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Roll-ups over stored runs and repricing a time range after the price table changes.
let server: TestServer;
let ctx: ServiceContext;

beforeAll(async () => {
  server = await startTestServer();
  ctx = createServiceContext(server.hangar.runtime, { kind: "api-key" });
});

afterAll(async () => {
  await server?.close();
});

function llmRun(id: string, model: string, startTime: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    name: "model",
    runType: "llm",
    startTime,
    inputs: { messages: [{ role: "user", content: "hi" }] },
    outputs: { role: "assistant", content: "ok", usage_metadata: { input_tokens: 1000, output_tokens: 500, total_tokens: 1500 } },
    extra: { metadata: { ls_model_name: model, ...extra } },
  };
}

describe("trace roll-ups", () => {
  it("sums tokens and costs over every run of a trace", async () => {
    const root = randomUUID();
    const [a, b] = [randomUUID(), randomUUID()];
    await tracesService.ingest(ctx, {
      posts: [
        { id: root, name: "agent", runType: "chain", startTime: "2025-08-01T00:00:00Z" },
        { ...llmRun(a, "gpt-4o-mini", "2025-08-01T00:00:01Z"), traceId: root, parentRunId: root },
        { ...llmRun(b, "gpt-4o", "2025-08-01T00:00:02Z"), traceId: root, parentRunId: a },
      ],
      patches: [],
    });
    expect(await tracesService.traceTotals(ctx, root)).toEqual({
      runCount: 3,
      modelNames: ["gpt-4o", "gpt-4o-mini"],
      promptTokens: 2000,
      completionTokens: 1000,
      totalTokens: 3000,
      promptCost: "0.00265", // 0.00015 + 0.0025
      completionCost: "0.0053", // 0.0003 + 0.005
      totalCost: "0.00795",
    });
    const tree = await tracesService.getTree(ctx, root);
    expect(tree.runs.map((run) => run.id)).toEqual([root, a, b]);
    expect(tree.roots[0].children[0].children[0].run.id).toBe(b);
    expect(await tracesService.totalsForTraces(ctx, [randomUUID(), root])).toEqual([null, expect.objectContaining({ runCount: 3 })]);
  });

  it("summarizes by model, assistant and day over a time range", async () => {
    const assistantId = randomUUID();
    await tracesService.ingest(ctx, {
      posts: [
        llmRun(randomUUID(), "gpt-4o-mini", "2025-08-10T10:00:00Z", { assistant_id: assistantId }),
        llmRun(randomUUID(), "gpt-4o-mini", "2025-08-11T10:00:00Z", { assistant_id: assistantId }),
        llmRun(randomUUID(), "gpt-4.1", "2025-08-11T11:00:00Z"),
      ],
      patches: [],
    });
    const range = { from: "2025-08-10T00:00:00Z", to: "2025-08-12T00:00:00Z" };
    const byModel = await tracesService.summarizeUsage(ctx, { ...range, groupBy: ["model"] });
    expect(byModel).toEqual([
      expect.objectContaining({ model: "gpt-4.1", runCount: 1, totalCost: "0.006" }),
      expect.objectContaining({ model: "gpt-4o-mini", runCount: 2, totalTokens: 3000, totalCost: "0.0009" }),
    ]);
    const byAssistant = await tracesService.summarizeUsage(ctx, { ...range, groupBy: ["assistant"] });
    expect(byAssistant).toEqual([
      expect.objectContaining({ assistantId, runCount: 2 }),
      expect.objectContaining({ assistantId: null, runCount: 1 }),
    ]);
    const byDay = await tracesService.summarizeUsage(ctx, { ...range, groupBy: ["day"] });
    expect(byDay.map((row) => [row.day, row.runCount])).toEqual([
      ["2025-08-10", 1],
      ["2025-08-11", 2],
    ]);
  });
});

describe("model prices and repricing", () => {
  it("prices new runs with a new price at once and old runs only when their range is repriced", async () => {
    const [before, inRange, outOfRange] = [randomUUID(), randomUUID(), randomUUID()];
    await tracesService.ingest(ctx, {
      posts: [llmRun(inRange, "house-model-7b", "2025-09-01T12:00:00Z"), llmRun(outOfRange, "house-model-7b", "2025-09-05T12:00:00Z")],
      patches: [],
    });
    expect((await tracesService.get(ctx, inRange)).totalCost).toBeNull();

    const price = await modelPricesService.create(ctx, {
      modelName: "house-model-7b",
      matchPattern: "^house-model-7b$",
      inputPrice: "1",
      outputPrice: "2",
    });
    await tracesService.ingest(ctx, { posts: [llmRun(before, "house-model-7b", "2025-09-02T12:00:00Z")], patches: [] });
    expect(await tracesService.get(ctx, before)).toMatchObject({ totalCost: "0.002", priceId: price.id, costSource: "price-table" });
    expect((await tracesService.get(ctx, inRange)).totalCost).toBeNull();

    const result = await modelPricesService.repriceRange(ctx, {
      from: "2025-09-01T00:00:00Z",
      to: "2025-09-03T00:00:00Z",
      modelPattern: "^house-",
    });
    expect(result.repricedRuns).toBe(2);
    expect(await tracesService.get(ctx, inRange)).toMatchObject({ promptCost: "0.001", completionCost: "0.001", totalCost: "0.002" });
    expect((await tracesService.get(ctx, outOfRange)).totalCost).toBeNull();

    await modelPricesService.update(ctx, price.id, { outputPrice: "4" });
    await modelPricesService.repriceRange(ctx, { from: "2025-09-01T00:00:00Z", to: "2025-09-10T00:00:00Z" });
    expect((await tracesService.get(ctx, outOfRange)).totalCost).toBe("0.003");
    await modelPricesService.delete(ctx, price.id);
    expect((await modelPricesService.list(ctx)).some((row) => row.id === price.id)).toBe(false);
  });

  it("ships list prices whose patterns do not overlap (gpt-4o never prices gpt-4o-mini)", async () => {
    const prices = await modelPricesService.list(ctx);
    const gpt4o = prices.find((row) => row.modelName === "gpt-4o")!;
    expect(new RegExp(gpt4o.matchPattern).test("gpt-4o-mini")).toBe(false);
    expect(new RegExp(gpt4o.matchPattern).test("gpt-4o-2024-08-06")).toBe(true);
    const mini = prices.find((row) => row.modelName === "gpt-4o-mini")!;
    expect(mini).toMatchObject({ inputPrice: "0.15", outputPrice: "0.60", inputDetailPrices: { cache_read: "0.075" } });
    for (const model of ["claude-sonnet-4-5-20250929", "gemini-2.5-flash", "o3-mini", "gpt-5-mini", "offline-echo"]) {
      const matching = prices.filter((row) => new RegExp(row.matchPattern).test(model));
      // Later rows of the same model (price changes, tiers) share its pattern: one model, several dates.
      expect(new Set(matching.map((row) => row.modelName)), model).toHaveProperty("size", 1);
    }
  });

  it("refuses an invalid regular expression or price, naming the field", async () => {
    await expect(
      modelPricesService.create(ctx, { modelName: "x", matchPattern: "^(unclosed", inputPrice: "1", outputPrice: "1" }),
    ).rejects.toThrow(/match_pattern/);
    await expect(
      modelPricesService.create(ctx, { modelName: "x", matchPattern: "^x$", inputPrice: "-1", outputPrice: "1" }),
    ).rejects.toThrow(InvalidInputError);
    await expect(modelPricesService.repriceRange(ctx, { from: "2025-01-02", to: "2025-01-01" })).rejects.toThrow(InvalidInputError);
  });
});
