import { Client } from "langsmith";
import { RunTree } from "langsmith/run_trees";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import {
  CreateModelPriceDocument,
  DeleteModelPriceDocument,
  GetModelPriceNodeDocument,
  GetTraceRunDocument,
  ListModelPricesDocument,
  RepriceTracesDocument,
  UpdateModelPriceDocument,
} from "./generated/graphql.js";
import { errorCode, executeOk, executeOperation } from "./helpers.js";

// The model price table through GraphQL, and repricing stored runs after it changes.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

/** One llm run of `model` with 1000 input and 500 output tokens, through the langsmith SDK. */
async function ingestLlmRun(model: string, startTime: string): Promise<string> {
  const client = new Client({ apiUrl: `${server.url}/tracing`, apiKey: "unused", autoBatchTracing: false, callerOptions: { maxRetries: 0 } });
  const run = new RunTree({
    name: "house-llm",
    run_type: "llm",
    client,
    start_time: Date.parse(startTime),
    inputs: { messages: [{ role: "user", content: "hi" }] },
    metadata: { ls_model_name: model },
  });
  await run.postRun();
  await run.end(
    { role: "assistant", content: "ok", usage_metadata: { input_tokens: 1000, output_tokens: 500, total_tokens: 1500 } },
    undefined,
    Date.parse(startTime) + 1000,
  );
  await run.patchRun();
  return run.id;
}

async function costOf(traceRunId: string) {
  return (await executeOk(server, GetTraceRunDocument, { traceRunId })).traceRun.cost;
}

/** The whole table, page by page (it holds more rows than one page). */
async function listAllPrices() {
  const nodes = [];
  let after: string | null | undefined;
  for (;;) {
    const { modelPrices } = await executeOk(server, ListModelPricesDocument, { first: 100, after });
    nodes.push(...modelPrices.edges.map((edge) => edge.node));
    if (!modelPrices.pageInfo.hasNextPage) return { totalCount: modelPrices.totalCount, nodes };
    after = modelPrices.pageInfo.endCursor;
  }
}

describe("modelPrices", () => {
  it("lists the seeded table, by model name", async () => {
    const { totalCount, nodes } = await listAllPrices();
    expect(totalCount).toBeGreaterThan(100);
    expect(nodes).toHaveLength(totalCount);
    const names = nodes.map((node) => node.modelName);
    expect(names).toEqual([...names].sort());
    expect(nodes).toContainEqual(expect.objectContaining({ modelName: "gpt-4o-mini", inputPrice: "0.15", outputPrice: "0.60" }));
    expect(nodes).toContainEqual(
      expect.objectContaining({ modelName: "offline-echo", matchPattern: "^offline-echo$", provider: "hangar" }),
    );
  });
});

describe("model price mutations", () => {
  it("creates, updates and deletes a price; repricing applies each change to stored runs in range", async () => {
    const inRange = await ingestLlmRun("house-model-7b", "2025-09-01T12:00:00Z");
    const outOfRange = await ingestLlmRun("house-model-7b", "2025-09-05T12:00:00Z");
    expect(await costOf(inRange)).toMatchObject({ totalCost: null, source: "NONE" });

    const { createModelPrice } = await executeOk(server, CreateModelPriceDocument, {
      input: {
        modelName: "house-model-7b",
        matchPattern: "^house-model-7b$",
        inputPrice: "1",
        outputPrice: "2",
        inputDetailPrices: { cache_read: "0.5" },
      },
    });
    const price = createModelPrice.modelPrice;
    expect(price).toMatchObject({
      modelName: "house-model-7b",
      matchPattern: "^house-model-7b$",
      provider: null,
      inputPrice: "1",
      outputPrice: "2",
      inputDetailPrices: { cache_read: "0.5" },
      outputDetailPrices: {},
      effectiveFrom: "1970-01-01T00:00:00.000Z",
    });
    const { node } = await executeOk(server, GetModelPriceNodeDocument, { id: price.id });
    expect(node).toEqual({ __typename: "ModelPrice", modelPriceId: price.modelPriceId, modelName: "house-model-7b" });
    // Stored runs keep their costs until repriced.
    expect(await costOf(inRange)).toMatchObject({ totalCost: null });

    const range = { from: "2025-09-01T00:00:00Z", to: "2025-09-03T00:00:00Z" };
    const repriced = await executeOk(server, RepriceTracesDocument, { input: { ...range, model: "House-Model-7b" } });
    expect(repriced.repriceTraces).toEqual({ repricedRuns: 1, changedRuns: 1, costDelta: "0.002", dryRun: false });
    expect(await costOf(inRange)).toMatchObject({
      promptCost: "0.001",
      completionCost: "0.001",
      totalCost: "0.002",
      source: "PRICE_TABLE",
      priceId: price.modelPriceId,
    });
    expect(await costOf(outOfRange)).toMatchObject({ totalCost: null });

    const { updateModelPrice } = await executeOk(server, UpdateModelPriceDocument, {
      input: { modelPriceId: price.modelPriceId, outputPrice: "4" },
    });
    expect(updateModelPrice.modelPrice).toMatchObject({ inputPrice: "1", outputPrice: "4", modelName: "house-model-7b" });
    await executeOk(server, RepriceTracesDocument, { input: range });
    expect(await costOf(inRange)).toMatchObject({ completionCost: "0.002", totalCost: "0.003" });

    const { deleteModelPrice } = await executeOk(server, DeleteModelPriceDocument, { input: { modelPriceId: price.modelPriceId } });
    expect(deleteModelPrice).toEqual({ deletedModelPriceId: price.modelPriceId, deletedId: price.id });
    expect((await listAllPrices()).nodes.map((node) => node.modelPriceId)).not.toContain(price.modelPriceId);
    await executeOk(server, RepriceTracesDocument, { input: range });
    expect(await costOf(inRange)).toMatchObject({ totalCost: null, source: "NONE" });

    const gone = await executeOperation(server, UpdateModelPriceDocument, { input: { modelPriceId: price.modelPriceId, inputPrice: "2" } });
    expect(errorCode(gone)).toBe("NOT_FOUND");
    expect(errorCode(await executeOperation(server, DeleteModelPriceDocument, { input: { modelPriceId: "nope" } }))).toBe("NOT_FOUND");
  });

  it("rejects a bad regular expression naming the field, and bad prices, as INVALID_INPUT", async () => {
    const badPattern = await executeOperation(server, CreateModelPriceDocument, {
      input: { modelName: "broken", matchPattern: "gpt-(4", inputPrice: "1", outputPrice: "1" },
    });
    expect(errorCode(badPattern)).toBe("INVALID_INPUT");
    expect(badPattern.errors?.[0]?.message).toMatch(/^matchPattern is not a valid regular expression/);

    const badPrice = await executeOperation(server, CreateModelPriceDocument, {
      input: { modelName: "broken", matchPattern: "^broken$", inputPrice: "cheap", outputPrice: "1" },
    });
    expect(errorCode(badPrice)).toBe("INVALID_INPUT");
    expect(badPrice.errors?.[0]?.message).toMatch(/input_price/);

    const reversed = await executeOperation(server, RepriceTracesDocument, {
      input: { from: "2025-02-01T00:00:00Z", to: "2025-01-01T00:00:00Z" },
    });
    expect(errorCode(reversed)).toBe("INVALID_INPUT");
    // Nothing was created by the failed calls.
    expect((await listAllPrices()).nodes.map((node) => node.modelName)).not.toContain("broken");
  });
});
