import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Usage, model identification, costs and time to first token, derived on ingest.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

const USAGE_1000_500 = { input_tokens: 1000, output_tokens: 500, total_tokens: 1500 };

async function ingestLlmRun(fields: Record<string, unknown>): Promise<Record<string, any>> {
  const id = randomUUID();
  const response = await server.request("/tracing/runs/batch", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      post: [
        {
          id,
          name: "llm",
          run_type: "llm",
          start_time: "2025-05-01T12:00:00Z",
          end_time: "2025-05-01T12:00:02Z",
          inputs: { messages: [{ role: "user", content: "hello" }] },
          outputs: { role: "assistant", content: "hi" },
          ...fields,
        },
      ],
    }),
  });
  expect(response.status, await response.clone().text()).toBe(202);
  return (await server.request(`/tracing/runs/${id}`)).json();
}

describe("ingestion: tokens and costs", () => {
  it("prices gpt-4o-mini: 1000 input and 500 output tokens cost 0.00015 + 0.0003 = 0.00045 USD", async () => {
    const run = await ingestLlmRun({
      extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
      outputs: { role: "assistant", content: "hi", usage_metadata: USAGE_1000_500 },
    });
    expect(run).toMatchObject({
      model_name: "gpt-4o-mini",
      provider: "openai",
      prompt_tokens: 1000,
      completion_tokens: 500,
      total_tokens: 1500,
      prompt_cost: 0.00015,
      completion_cost: 0.0003,
      total_cost: 0.00045,
      cost_source: "price-table",
      tokens_estimated: false,
    });
  });

  it("prices cached input tokens at the cache_read rate and the rest at the base rate", async () => {
    const run = await ingestLlmRun({
      extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
      outputs: {
        role: "assistant",
        content: "hi",
        usage_metadata: { ...USAGE_1000_500, input_token_details: { cache_read: 400 } },
      },
    });
    // 600 × 0.15/1M + 400 × 0.075/1M
    expect(run.prompt_cost).toBe(0.00012);
    expect(run.prompt_token_details).toEqual({ cache_read: 400 });
  });

  it("returns explicit costs exactly, overriding the price table", async () => {
    const run = await ingestLlmRun({
      extra: { metadata: { ls_model_name: "gpt-4o-mini" } },
      outputs: {
        role: "assistant",
        content: "hi",
        usage_metadata: { ...USAGE_1000_500, input_cost: 0.0123, output_cost: 0.0456, total_cost: 0.0579 },
      },
    });
    expect(run).toMatchObject({ prompt_cost: 0.0123, completion_cost: 0.0456, total_cost: 0.0579, cost_source: "explicit" });
  });

  it("reads usage from extra.metadata.usage_metadata when the outputs carry none", async () => {
    const run = await ingestLlmRun({
      extra: { metadata: { ls_model_name: "gpt-4o-mini", usage_metadata: USAGE_1000_500 } },
    });
    expect(run).toMatchObject({ prompt_tokens: 1000, completion_tokens: 500, total_cost: 0.00045, usage_source: "metadata" });
  });

  it("identifies the model by ls_model_name, then inputs.model, then inputs.model_name", async () => {
    const outputs = { role: "assistant", content: "hi", usage_metadata: USAGE_1000_500 };
    const messages = [{ role: "user", content: "hello" }];
    const byMetadata = await ingestLlmRun({
      extra: { metadata: { ls_model_name: "gpt-4o" } },
      inputs: { model: "gpt-4o-mini", model_name: "gpt-4o-mini", messages },
      outputs,
    });
    // gpt-4o: 1000 × 2.50/1M + 500 × 10/1M
    expect(byMetadata).toMatchObject({ model_name: "gpt-4o", total_cost: 0.0075 });
    const byModel = await ingestLlmRun({ inputs: { model: "gpt-4o-mini", model_name: "gpt-4o", messages }, outputs });
    expect(byModel).toMatchObject({ model_name: "gpt-4o-mini", total_cost: 0.00045 });
    const byModelName = await ingestLlmRun({ inputs: { model_name: "gpt-4o", messages }, outputs });
    expect(byModelName).toMatchObject({ model_name: "gpt-4o", total_cost: 0.0075 });
  });

  it("estimates tokens with a tokenizer when the run reports none", async () => {
    const run = await ingestLlmRun({ extra: { metadata: { ls_model_name: "gpt-4o-mini" } } });
    expect(run.tokens_estimated).toBe(true);
    expect(run.prompt_tokens).toBeGreaterThan(0);
    expect(run.completion_tokens).toBeGreaterThan(0);
  });

  it("has no cost for a model missing from the price table", async () => {
    const run = await ingestLlmRun({
      extra: { metadata: { ls_model_name: "my-local-llama" } },
      outputs: { role: "assistant", content: "hi", usage_metadata: USAGE_1000_500 },
    });
    expect(run).toMatchObject({ prompt_tokens: 1000, prompt_cost: null, total_cost: null, cost_source: "none" });
  });

  it("prices the example deployment's offline-echo model", async () => {
    const run = await ingestLlmRun({
      extra: { metadata: { ls_model_name: "offline-echo", ls_provider: "hangar" } },
      outputs: { role: "assistant", content: "hi", usage_metadata: USAGE_1000_500 },
    });
    expect(run.total_cost).toBeGreaterThan(0);
  });

  it("takes the first token time from the earliest new_token event", async () => {
    const run = await ingestLlmRun({
      events: [
        { name: "start", time: "2025-05-01T12:00:00.000001Z" },
        { name: "new_token", time: "2025-05-01T12:00:00.900000Z", kwargs: { token: "b" } },
        { name: "new_token", time: "2025-05-01T12:00:00.412345Z", kwargs: { token: "a" } },
        { name: "end", time: "2025-05-01T12:00:02Z" },
      ],
    });
    expect(run.first_token_time).toBe("2025-05-01T12:00:00.412345Z");
  });

  it("links runs to Hangar's run, thread and assistant through their metadata", async () => {
    const links = { run_id: randomUUID(), thread_id: randomUUID(), assistant_id: randomUUID() };
    const run = await ingestLlmRun({ extra: { metadata: { ...links, ls_model_name: "offline-echo" } } });
    expect(run).toMatchObject({ hangar_run_id: links.run_id, thread_id: links.thread_id, assistant_id: links.assistant_id });
  });
});

describe("ingestion: usage_metadata fields outside the contract", () => {
  it("stores the run verbatim, uses its known counts and costs, and names the field in the rendered view", async () => {
    const usage = { ...USAGE_1000_500, input_cost: 0.01, output_cost: 0.02, total_cost: 0.03, reasoning_effort: "high" };
    const outputs = { role: "assistant", content: "hi", usage_metadata: usage };
    const run = await ingestLlmRun({ outputs });
    expect(run.outputs).toEqual(outputs);
    expect(run).toMatchObject({ prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500, total_cost: 0.03, cost_source: "explicit" });
    const named = (warnings: string[]) => warnings.filter((warning) => warning.includes('"reasoning_effort"'));
    expect(named(run.rendered.warnings)).toEqual(['outputs.usage_metadata: unknown usage key "reasoning_effort" ignored']);
    // Reported once on the run as well, not twice.
    expect(named(run.warnings)).toHaveLength(1);
  });
});
