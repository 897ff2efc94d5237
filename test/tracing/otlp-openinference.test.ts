import http from "node:http";
import type { AddressInfo } from "node:net";
import { OpenAIInstrumentation } from "@arizeai/openinference-instrumentation-openai";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// OpenInference's instrumentation of the official openai client (against a local fake OpenAI
// server) exporting over OTLP/protobuf to a running Hangar; read back through GraphQL.
const API_KEY = "oi-key";
let server: TestServer;
let fakeOpenAI: http.Server;
let fakeUrl: string;

const COMPLETION = {
  id: "chatcmpl-oi",
  object: "chat.completion",
  created: 1735689600,
  model: "gpt-4o-mini-2024-07-18",
  choices: [
    {
      index: 0,
      finish_reason: "tool_calls",
      message: {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_9", type: "function", function: { name: "lookup", arguments: '{"q":"otel"}' } }],
      },
    },
  ],
  // OpenAI's prompt_tokens include the cached ones.
  usage: { prompt_tokens: 2000, completion_tokens: 30, total_tokens: 2030, prompt_tokens_details: { cached_tokens: 1500 } },
};

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [API_KEY] });
  fakeOpenAI = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(COMPLETION));
    });
  });
  await new Promise<void>((resolve) => fakeOpenAI.listen(0, "127.0.0.1", resolve));
  fakeUrl = `http://127.0.0.1:${(fakeOpenAI.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => fakeOpenAI?.close(resolve));
  await server?.close();
});

describe("OpenInference openai instrumentation over OTLP", () => {
  it("a chat completion becomes an llm run with OpenInference's model, tokens, cost and messages", async () => {
    const exporter = new OTLPTraceExporter({ url: `${server.url}/otel/v1/traces`, headers: { "x-api-key": API_KEY } });
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    const instrumentation = new OpenAIInstrumentation({ tracerProvider: provider });
    instrumentation.manuallyInstrument(OpenAI);
    const client = new OpenAI({ apiKey: "sk-fake", baseURL: fakeUrl, maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "Use tools." },
        { role: "user", content: "Search for otel" },
      ],
      tools: [{ type: "function", function: { name: "lookup", parameters: { type: "object", properties: { q: { type: "string" } } } } }],
    });
    expect(completion.choices[0].message.tool_calls?.[0].id).toBe("call_9");
    await provider.forceFlush();
    await provider.shutdown();
    instrumentation.disable();

    const response = await server.request("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `{ traces(first: 1, runType: "llm") { edges { node {
          name runType modelName provider parentRunId warnings
          usage { inputTokens outputTokens totalTokens inputTokenDetails estimated }
          cost { totalCost promptCostDetails source }
          rendered { warnings
            inputMessages { role content { __typename ... on TextBlock { text } } }
            outputMessages { role content { __typename ... on ToolCallBlock { id name args } } } }
        } } } }`,
      }),
    });
    const body = (await response.json()) as any;
    expect(body.errors).toBeUndefined();
    const run = body.data.traces.edges[0].node;
    expect(run).toMatchObject({ runType: "llm", modelName: "gpt-4o-mini-2024-07-18", provider: "openai", parentRunId: null });
    expect(run.usage).toEqual({ inputTokens: 2000, outputTokens: 30, totalTokens: 2030, inputTokenDetails: { cache_read: 1500 }, estimated: false });
    expect(run.cost.source).toBe("PRICE_TABLE");
    expect(Number(run.cost.totalCost)).toBeGreaterThan(0);
    expect(run.cost.promptCostDetails).toHaveProperty("cache_read");
    expect(run.rendered.inputMessages).toEqual([
      { role: "SYSTEM", content: [{ __typename: "TextBlock", text: "Use tools." }] },
      { role: "USER", content: [{ __typename: "TextBlock", text: "Search for otel" }] },
    ]);
    expect(run.rendered.outputMessages).toEqual([
      { role: "ASSISTANT", content: [{ __typename: "ToolCallBlock", id: "call_9", name: "lookup", args: { q: "otel" } }] },
    ]);
    expect(run.rendered.warnings).toEqual([]);
  });
});
