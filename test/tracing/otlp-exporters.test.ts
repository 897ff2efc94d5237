import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter as OTLPHttpJsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as OTLPProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { InMemorySpanExporter, SimpleSpanProcessor, type SpanExporter, TracerProvider } from "@opentelemetry/sdk-trace";
import { generateText, stepCountIs, streamText, tool } from "ai";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Real OpenTelemetry exporters (protobuf and JSON, gzip) and the Vercel AI SDK's telemetry sending
// to a running Hangar; every trace is read back through GraphQL.
const API_KEY = "otlp-test-key";
let server: TestServer;

const contextManager = new AsyncLocalStorageContextManager();

beforeAll(async () => {
  // Instrumentations (the AI SDK's included) nest spans through the active context.
  context.setGlobalContextManager(contextManager.enable());
  server = await startTestServer({ apiKeys: [API_KEY] });
});

afterAll(async () => {
  context.disable();
  await server?.close();
});

function providerWith(exporter: SpanExporter): TracerProvider {
  return new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
}

function protoExporter(path = "/otel/v1/traces", compression: "gzip" | "none" = "none") {
  return new OTLPProtoExporter({ url: `${server.url}${path}`, headers: { "x-api-key": API_KEY }, compression: compression as never });
}

function jsonExporter(path = "/otel/v1/traces") {
  return new OTLPHttpJsonExporter({ url: `${server.url}${path}`, headers: { "x-api-key": API_KEY } });
}

async function graphql(query: string, variables: Record<string, unknown>) {
  const response = await server.request("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: any; errors?: unknown[] };
  expect(body.errors).toBeUndefined();
  return body.data;
}

const TRACE_QUERY = /* GraphQL */ `
  query Trace($traceId: ID!) {
    trace(traceId: $traceId) {
      totals { runCount usage { inputTokens outputTokens } cost { totalCost } }
      runs(first: 50) {
        edges {
          node {
            traceRunId parentRunId name runType status error modelName provider threadId sessionName warnings tags
            inputs outputs extra
            usage { inputTokens outputTokens totalTokens inputTokenDetails outputTokenDetails estimated }
            cost { promptCost completionCost totalCost promptCostDetails source }
            rendered {
              format warnings
              inputMessages { role toolCallId content { __typename ... on TextBlock { text } ... on ToolCallBlock { id name args } ... on ReasoningBlock { text } } }
              outputMessages { role content { __typename ... on TextBlock { text } ... on ToolCallBlock { id name args } ... on ReasoningBlock { text } } }
            }
          }
        }
      }
    }
  }
`;

async function readTrace(traceIdHex: string) {
  const traceId = `${traceIdHex.slice(0, 8)}-${traceIdHex.slice(8, 12)}-${traceIdHex.slice(12, 16)}-${traceIdHex.slice(16, 20)}-${traceIdHex.slice(20)}`;
  const data = await graphql(TRACE_QUERY, { traceId });
  return { totals: data.trace.totals, runs: data.trace.runs.edges.map((edge: any) => edge.node) as any[] };
}

function byName(runs: any[], name: string) {
  const run = runs.find((candidate) => candidate.name === name);
  expect(run, `run '${name}' in ${runs.map((r) => r.name).join(", ")}`).toBeDefined();
  return run;
}

const THREAD = "0b7e1c9e-7a53-4c0e-9a53-2f6a1c2d3e4f";

/** An agent span with a GenAI chat span and a tool span under it, as a GenAI-instrumented app records them. */
async function recordGenAiAgent(provider: TracerProvider): Promise<string> {
  const tracer = provider.getTracer("genai-app", "1.0.0");
  let traceId = "";
  await tracer.startActiveSpan("invoke_agent weather", { attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.conversation.id": THREAD } }, async (agent) => {
    traceId = agent.spanContext().traceId;
    const inAgent = trace.setSpan(context.active(), agent);
    const chat = tracer.startSpan("chat gpt-4o-mini", {
      kind: SpanKind.CLIENT,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
        "gen_ai.request.temperature": 0.2,
        // input_tokens includes the cached ones (GenAI conventions): 1200 = 1000 cached + 200.
        "gen_ai.usage.input_tokens": 1200,
        "gen_ai.usage.cache_read.input_tokens": 1000,
        "gen_ai.usage.output_tokens": 50,
        "gen_ai.conversation.id": THREAD,
        "gen_ai.system_instructions": JSON.stringify([{ type: "text", content: "You are terse." }]),
        "gen_ai.input.messages": JSON.stringify([{ role: "USER", parts: [{ type: "text", content: "Weather in Paris?" }] }]),
        "gen_ai.output.messages": JSON.stringify([
          { role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "get_weather", arguments: { city: "Paris" } }], finish_reason: "tool_call" },
        ]),
        "acme.request.shard": "eu-3",
      },
    }, inAgent);
    chat.end();
    const toolSpan = tracer.startSpan("execute_tool get_weather", {
      attributes: {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_weather",
        "gen_ai.tool.call.id": "call_1",
        "gen_ai.tool.call.arguments": JSON.stringify({ city: "Paris" }),
        "gen_ai.tool.call.result": JSON.stringify({ celsius: 18 }),
      },
    }, inAgent);
    toolSpan.setStatus({ code: SpanStatusCode.ERROR, message: "weather service timed out" });
    toolSpan.end();
    agent.end();
  });
  await provider.forceFlush();
  return traceId;
}

describe("OTLP/HTTP ingestion with the official OpenTelemetry exporters", () => {
  it("protobuf exporter: GenAI spans become a priced, rendered trace tree", async () => {
    const provider = providerWith(protoExporter());
    const traceId = await recordGenAiAgent(provider);
    await provider.shutdown();
    const { runs, totals } = await readTrace(traceId);
    expect(runs).toHaveLength(3);
    const agent = byName(runs, "invoke_agent weather");
    const chat = byName(runs, "chat gpt-4o-mini");
    const toolRun = byName(runs, "execute_tool get_weather");
    expect(agent).toMatchObject({ runType: "chain", parentRunId: null, status: "success", threadId: THREAD });
    expect(chat.parentRunId).toBe(agent.traceRunId);
    expect(toolRun.parentRunId).toBe(agent.traceRunId);
    expect(chat).toMatchObject({ runType: "llm", modelName: "gpt-4o-mini-2024-07-18", provider: "openai", threadId: THREAD });
    // Cached tokens are part of the 1200, not added to them.
    expect(chat.usage).toMatchObject({ inputTokens: 1200, outputTokens: 50, totalTokens: 1250, inputTokenDetails: { cache_read: 1000 }, estimated: false });
    expect(chat.cost.source).toBe("PRICE_TABLE");
    expect(Number(chat.cost.totalCost)).toBeGreaterThan(0);
    expect(chat.cost.promptCostDetails).toHaveProperty("cache_read");
    expect(chat.rendered.inputMessages).toEqual([
      { role: "SYSTEM", toolCallId: null, content: [{ __typename: "TextBlock", text: "You are terse." }] },
      { role: "USER", toolCallId: null, content: [{ __typename: "TextBlock", text: "Weather in Paris?" }] },
    ]);
    expect(chat.rendered.outputMessages).toEqual([
      { role: "ASSISTANT", content: [{ __typename: "ToolCallBlock", id: "call_1", name: "get_weather", args: { city: "Paris" } }] },
    ]);
    // The unknown attribute is kept raw and named in the rendered view's warnings.
    // Only that one is kept raw: the mapped ones live in the run's own fields.
    expect(chat.extra.otel.attributes).toEqual({ "acme.request.shard": "eu-3" });
    expect(chat.rendered.warnings.join("\n")).toContain("acme.request.shard");
    expect(chat.extra.invocation_params).toMatchObject({ temperature: 0.2 });
    expect(toolRun).toMatchObject({
      runType: "tool",
      status: "error",
      error: "weather service timed out",
      inputs: { name: "get_weather", tool_call_id: "call_1", args: { city: "Paris" } },
      outputs: { output: { celsius: 18 } },
    });
    expect(totals).toMatchObject({ runCount: 3, usage: { inputTokens: 1200, outputTokens: 50 } });
    expect(totals.cost.totalCost).toBe(chat.cost.totalCost);
  });

  it("protobuf exporter with gzip, under /tracing/otel", async () => {
    const provider = providerWith(protoExporter("/tracing/otel/v1/traces", "gzip"));
    const traceId = await recordGenAiAgent(provider);
    await provider.shutdown();
    const { runs } = await readTrace(traceId);
    expect(runs.map((run) => run.name).sort()).toEqual(["chat gpt-4o-mini", "execute_tool get_weather", "invoke_agent weather"]);
  });

  it("JSON exporter: the same spans give the same runs", async () => {
    const provider = providerWith(jsonExporter());
    const traceId = await recordGenAiAgent(provider);
    await provider.shutdown();
    const { runs } = await readTrace(traceId);
    const chat = byName(runs, "chat gpt-4o-mini");
    expect(chat.usage).toMatchObject({ inputTokens: 1200, outputTokens: 50, inputTokenDetails: { cache_read: 1000 } });
    expect(chat.rendered.outputMessages[0].content[0]).toMatchObject({ __typename: "ToolCallBlock", name: "get_weather" });
  });

  it("an exporter without the API key is refused and stores nothing", async () => {
    const recorded = new InMemorySpanExporter();
    const provider = providerWith(recorded);
    provider.getTracer("t").startSpan("unauthenticated").end();
    await provider.forceFlush();
    const [span] = recorded.getFinishedSpans();
    const exporter = new OTLPProtoExporter({ url: `${server.url}/otel/v1/traces` });
    const result = await new Promise<{ code: number; error?: Error }>((resolve) => exporter.export([span], resolve));
    await exporter.shutdown();
    await provider.shutdown();
    expect(result.code).toBe(1);
    expect(result.error?.message).toContain("Unauthorized");
    const response = await server.request("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "query($id: ID!) { trace(traceId: $id) { traceId } }", variables: { id: uuidOf(span.spanContext().traceId) } }),
    });
    expect(((await response.json()) as any).errors[0].extensions.code).toBe("NOT_FOUND");
  });
});

function uuidOf(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

describe("Vercel AI SDK telemetry (experimental_telemetry) over OTLP", () => {
  it("generateText with a tool call: ai.* spans become chain, llm and tool runs with usage and messages", async () => {
    const provider = providerWith(protoExporter());
    const tracer = provider.getTracer("ai");
    let step = 0;
    const model = new MockLanguageModelV3({
      provider: "openai.chat",
      modelId: "gpt-4o-mini",
      doGenerate: async () => {
        step++;
        const usage = {
          inputTokens: { total: step === 1 ? 100 : 140, noCache: step === 1 ? 100 : 140, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: step === 1 ? 20 : 10, text: step === 1 ? 20 : 10, reasoning: undefined },
        };
        if (step === 1) {
          return {
            content: [{ type: "tool-call", toolCallId: "call_w", toolName: "weather", input: JSON.stringify({ city: "Oslo" }) }],
            finishReason: { unified: "tool-calls", raw: "tool_calls" },
            usage,
            warnings: [],
          };
        }
        return { content: [{ type: "text", text: "It is 4°C in Oslo." }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
      },
    });
    const result = await generateText({
      model,
      system: "Answer briefly.",
      prompt: "Weather in Oslo?",
      tools: { weather: tool({ inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, celsius: 4 }) }) },
      stopWhen: stepCountIs(3),
      experimental_telemetry: { isEnabled: true, tracer, functionId: "weather-bot", metadata: { user_id: "u-42" } },
    });
    expect(result.text).toBe("It is 4°C in Oslo.");
    await provider.forceFlush();
    await provider.shutdown();
    const traceId = (await findTraceByName("ai.generateText"))!;
    const { runs, totals } = await readTrace(traceId);
    const root = byName(runs, "ai.generateText");
    expect(root).toMatchObject({ runType: "chain", parentRunId: null });
    expect(root.extra.metadata).toMatchObject({ user_id: "u-42", function_id: "weather-bot" });
    const calls = runs.filter((run) => run.runType === "llm");
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call).toMatchObject({ modelName: "gpt-4o-mini", provider: "openai", parentRunId: root.traceRunId });
      expect(call.rendered.warnings).toEqual([]);
    }
    for (const run of runs) expect(run.warnings).toEqual([]);
    const [first, second] = calls.sort((a, b) => a.usage.inputTokens - b.usage.inputTokens);
    expect(first.usage).toMatchObject({ inputTokens: 100, outputTokens: 20, estimated: false });
    expect(Number(first.cost.totalCost)).toBeGreaterThan(0);
    expect(first.rendered.inputMessages.map((message: any) => message.role)).toEqual(["SYSTEM", "USER"]);
    expect(first.rendered.inputMessages[1].content[0]).toEqual({ __typename: "TextBlock", text: "Weather in Oslo?" });
    expect(first.rendered.outputMessages[0].content[0]).toMatchObject({ __typename: "ToolCallBlock", id: "call_w", name: "weather", args: { city: "Oslo" } });
    // The second call sees the tool's answer as a tool message answering call_w.
    const toolMessage = second.rendered.inputMessages.find((message: any) => message.role === "TOOL");
    expect(toolMessage).toMatchObject({ toolCallId: "call_w" });
    expect(second.rendered.outputMessages[0].content[0]).toEqual({ __typename: "TextBlock", text: "It is 4°C in Oslo." });
    const toolRun = runs.find((run) => run.runType === "tool");
    expect(toolRun).toMatchObject({ inputs: { name: "weather", tool_call_id: "call_w", args: { city: "Oslo" } }, outputs: { output: { city: "Oslo", celsius: 4 } } });
    expect(totals.usage).toEqual({ inputTokens: 240, outputTokens: 30 });
  });
});

describe("Vercel AI SDK streamText over OTLP", () => {
  it("the doStream span's first chunk is the run's first token", async () => {
    const provider = providerWith(jsonExporter());
    const model = new MockLanguageModelV3({
      provider: "openai.chat",
      modelId: "gpt-4o-mini",
      doStream: async () => ({
        stream: simulateReadableStream({
          chunkDelayInMs: 5,
          chunks: [
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: "Hel" },
            { type: "text-delta", id: "t", delta: "lo" },
            { type: "text-end", id: "t" },
            {
              type: "finish",
              finishReason: { unified: "stop", raw: "stop" },
              usage: { inputTokens: { total: 7, noCache: 7, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 2, text: 2, reasoning: undefined } },
            },
          ],
        }),
      }),
    });
    const result = streamText({ model, prompt: "Greet", experimental_telemetry: { isEnabled: true, tracer: provider.getTracer("ai"), functionId: "streamer" } });
    expect(await result.text).toBe("Hello");
    await provider.forceFlush();
    await provider.shutdown();
    const data = await graphql(
      `{ traces(first: 1, rootsOnly: false, nameContains: "ai.streamText.doStream") { edges { node { runType startTime firstTokenTime timeToFirstTokenMs usage { inputTokens outputTokens } rendered { outputMessages { content { ... on TextBlock { text } } } } } } } }`,
      {},
    );
    const run = data.traces.edges[0].node;
    expect(run).toMatchObject({ runType: "llm", usage: { inputTokens: 7, outputTokens: 2 } });
    expect(run.rendered.outputMessages[0].content[0].text).toBe("Hello");
    expect(run.firstTokenTime).not.toBeNull();
    expect(run.timeToFirstTokenMs).toBeGreaterThanOrEqual(0);
  });
});

async function findTraceByName(name: string): Promise<string | undefined> {
  const data = await graphql(`query($name: String) { traces(first: 1, nameContains: $name) { edges { node { traceId } } } }`, { name });
  const traceId: string | undefined = data.traces.edges[0]?.node.traceId;
  return traceId?.replaceAll("-", "");
}
