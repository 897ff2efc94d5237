import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { SimpleSpanProcessor, type SpanExporter, TracerProvider } from "@opentelemetry/sdk-trace";
import { generateText } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { LangSmithOTLPTraceExporter } from "langsmith/experimental/otel/exporter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// The attribute conventions beyond the current GenAI ones, each from a real exporter: LangSmith's
// own OTel exporter (langsmith.*), the older GenAI per-message events and OpenLLMetry's indexed
// gen_ai.prompt.N attributes.
const API_KEY = "sources-key";
let server: TestServer;
const contextManager = new AsyncLocalStorageContextManager();
const savedTracing = process.env.LANGSMITH_TRACING;

beforeAll(async () => {
  context.setGlobalContextManager(contextManager.enable());
  // LangSmith's exporter sends only while tracing is on, as in an app that uses it.
  process.env.LANGSMITH_TRACING = "true";
  server = await startTestServer({ apiKeys: [API_KEY] });
});

afterAll(async () => {
  context.disable();
  if (savedTracing === undefined) delete process.env.LANGSMITH_TRACING;
  else process.env.LANGSMITH_TRACING = savedTracing;
  await server?.close();
});

function providerWith(exporter: SpanExporter): TracerProvider {
  return new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
}

async function runsOfTrace(traceIdHex: string): Promise<any[]> {
  const traceId = `${traceIdHex.slice(0, 8)}-${traceIdHex.slice(8, 12)}-${traceIdHex.slice(12, 16)}-${traceIdHex.slice(16, 20)}-${traceIdHex.slice(20)}`;
  const response = await server.request("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      query: `query($traceId: ID!) { trace(traceId: $traceId) { runs(first: 20) { edges { node {
        name runType modelName provider sessionName tags warnings extra
        usage { inputTokens outputTokens inputTokenDetails estimated }
        cost { totalCost }
        rendered { warnings
          inputMessages { role toolCallId content { __typename ... on TextBlock { text } } }
          outputMessages { role content { __typename ... on TextBlock { text } ... on ToolCallBlock { id name args } } } }
      } } } } }`,
      variables: { traceId },
    }),
  });
  const body = (await response.json()) as any;
  expect(body.errors).toBeUndefined();
  return body.data.trace.runs.edges.map((edge: any) => edge.node);
}

describe("LangSmith's OTel exporter", () => {
  it("AI SDK spans it rewrites (langsmith.span.kind, langsmith.metadata.*, langsmith.usage_metadata) land in its project", async () => {
    const exporter = new LangSmithOTLPTraceExporter({ url: `${server.url}/otel/v1/traces`, apiKey: API_KEY, projectName: "ls-otel" });
    const provider = providerWith(exporter);
    const tracer = provider.getTracer("ai");
    const model = new MockLanguageModelV3({
      provider: "anthropic.messages",
      modelId: "claude-3-5-haiku-20241022",
      doGenerate: async () => ({
        content: [{ type: "text", text: "Bonjour" }],
        finishReason: { unified: "stop", raw: "end_turn" },
        usage: { inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 3, text: 3, reasoning: undefined } },
        warnings: [],
      }),
    });
    let traceId = "";
    await tracer.startActiveSpan("translate", async (span) => {
      traceId = span.spanContext().traceId;
      await generateText({ model, prompt: "Say hello in French", experimental_telemetry: { isEnabled: true, tracer, metadata: { customer: "acme" } } });
      span.end();
    });
    await provider.forceFlush();
    await provider.shutdown();
    const runs = await runsOfTrace(traceId);
    const llm = runs.find((run) => run.runType === "llm");
    expect(llm).toMatchObject({ sessionName: "ls-otel", modelName: "claude-3-5-haiku-20241022", provider: "anthropic" });
    expect(llm.extra.metadata).toMatchObject({ customer: "acme" });
    expect(llm.usage).toMatchObject({ inputTokens: 12, outputTokens: 3, estimated: false });
    expect(Number(llm.cost.totalCost)).toBeGreaterThan(0);
    expect(llm.rendered.inputMessages).toEqual([{ role: "USER", toolCallId: null, content: [{ __typename: "TextBlock", text: "Say hello in French" }] }]);
    expect(llm.rendered.outputMessages).toEqual([{ role: "ASSISTANT", content: [{ __typename: "TextBlock", text: "Bonjour" }] }]);
    expect(llm.rendered.warnings).toEqual([]);
    expect(runs.every((run) => run.sessionName === "ls-otel")).toBe(true);
  });
});

describe("older GenAI conventions and OpenLLMetry", () => {
  it("per-message events (gen_ai.user.message, gen_ai.choice) and gen_ai.usage.prompt_tokens", async () => {
    const provider = providerWith(new OTLPTraceExporter({ url: `${server.url}/otel/v1/traces`, headers: { "x-api-key": API_KEY } }));
    const span = provider.getTracer("old-genai").startSpan("chat", {
      attributes: { "gen_ai.system": "openai", "gen_ai.request.model": "gpt-4o", "gen_ai.usage.prompt_tokens": 20, "gen_ai.usage.completion_tokens": 5 },
    });
    span.addEvent("gen_ai.system.message", { content: "Be brief." });
    span.addEvent("gen_ai.user.message", { content: "Capital of Peru?" });
    span.addEvent("gen_ai.choice", { index: 0, finish_reason: "stop", message: JSON.stringify({ role: "assistant", content: "Lima." }) });
    span.end();
    await provider.forceFlush();
    await provider.shutdown();
    const [run] = await runsOfTrace(span.spanContext().traceId);
    expect(run).toMatchObject({ runType: "llm", modelName: "gpt-4o", provider: "openai", usage: { inputTokens: 20, outputTokens: 5 } });
    expect(run.rendered.inputMessages.map((message: any) => [message.role, message.content[0].text])).toEqual([
      ["SYSTEM", "Be brief."],
      ["USER", "Capital of Peru?"],
    ]);
    expect(run.rendered.outputMessages).toEqual([{ role: "ASSISTANT", content: [{ __typename: "TextBlock", text: "Lima." }] }]);
  });

  it("OpenLLMetry's indexed gen_ai.prompt.N / gen_ai.completion.N attributes with an Anthropic cache trap", async () => {
    const provider = providerWith(new OTLPTraceExporter({ url: `${server.url}/otel/v1/traces`, headers: { "x-api-key": API_KEY } }));
    const span = provider.getTracer("openllmetry").startSpan("anthropic.chat", {
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.system": "anthropic",
        "gen_ai.request.model": "claude-sonnet-4-20250514",
        // Copied from Anthropic's usage: input_tokens without the 3000 read from cache.
        "gen_ai.usage.input_tokens": 40,
        "gen_ai.usage.cache_read.input_tokens": 3000,
        "gen_ai.usage.output_tokens": 8,
        "gen_ai.prompt.0.role": "user",
        "gen_ai.prompt.0.content": "Summarize the doc",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.content": "It is about OTLP.",
      },
    });
    span.end();
    await provider.forceFlush();
    await provider.shutdown();
    const [run] = await runsOfTrace(span.spanContext().traceId);
    expect(run.usage).toMatchObject({ inputTokens: 3040, outputTokens: 8, inputTokenDetails: { cache_read: 3000 } });
    expect(run.rendered.warnings.join("\n")).toMatch(/fewer than the cached tokens/);
    expect(run.rendered.inputMessages[0].content[0].text).toBe("Summarize the doc");
    expect(run.rendered.outputMessages[0].content[0].text).toBe("It is about OTLP.");
  });
});

