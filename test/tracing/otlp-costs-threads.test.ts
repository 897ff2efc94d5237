import { context, SpanKind, trace, type Attributes } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter as OTLPHttpJsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as OTLPProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { SimpleSpanProcessor, type SpanExporter, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Provider-reported costs (gen_ai.usage.cost, OpenInference's llm.cost.total) and thread roll-ups
// of LLM spans whose conversation id sits on their root span only, sent by the official
// OpenTelemetry exporters to a running Hangar and read back through GraphQL.
const API_KEY = "otlp-cost-key";
let server: TestServer;
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(async () => {
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

const protoExporter = () => new OTLPProtoExporter({ url: `${server.url}/otel/v1/traces`, headers: { "x-api-key": API_KEY } });
const jsonExporter = () => new OTLPHttpJsonExporter({ url: `${server.url}/otel/v1/traces`, headers: { "x-api-key": API_KEY } });

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
      totals { cost { totalCost } }
      runs(first: 10) { edges { node { name runType modelName usage { inputTokens outputTokens } cost { totalCost source } } } }
    }
  }
`;

const ROLLUP_QUERY = /* GraphQL */ `
  query Rollup($from: DateTime!, $to: DateTime!, $groupBy: [UsageGroupBy!]!) {
    usageSummary(from: $from, to: $to, groupBy: $groupBy, orderBy: COST) { thread model runCount totalTokens totalCost }
  }
`;

const uuidOfTraceHex = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

async function runsOf(traceIdHex: string) {
  const data = await graphql(TRACE_QUERY, { traceId: uuidOfTraceHex(traceIdHex) });
  return { totals: data.trace.totals, runs: data.trace.runs.edges.map((edge: any) => edge.node) as any[] };
}

/** An agent span (with `rootAttributes`) and one model-call span under it (with `callAttributes`), started at `start`. */
async function recordAgent(provider: TracerProvider, start: Date, rootAttributes: Attributes, callAttributes: Attributes): Promise<string> {
  const tracer = provider.getTracer("cost-app", "1.0.0");
  let traceId = "";
  const agent = tracer.startSpan("invoke_agent helper", { startTime: start, attributes: { "gen_ai.operation.name": "invoke_agent", ...rootAttributes } });
  traceId = agent.spanContext().traceId;
  const call = tracer.startSpan(
    "chat",
    { kind: SpanKind.CLIENT, startTime: new Date(start.getTime() + 100), attributes: { "gen_ai.operation.name": "chat", ...callAttributes } },
    trace.setSpan(context.active(), agent),
  );
  call.end(new Date(start.getTime() + 900));
  agent.end(new Date(start.getTime() + 1000));
  await provider.forceFlush();
  return traceId;
}

// gpt-4o-mini lists at 0.15/0.60 USD per 1M tokens: 1000 in, 500 out is 0.00045 from the price table.
const MINI_CALL: Attributes = {
  "gen_ai.provider.name": "openai",
  "gen_ai.request.model": "gpt-4o-mini",
  "gen_ai.usage.input_tokens": 1000,
  "gen_ai.usage.output_tokens": 500,
};

describe("a cost the provider reported, over OTLP", () => {
  it("gen_ai.usage.cost (protobuf exporter) is the call's explicit cost, not the price table's", async () => {
    const provider = providerWith(protoExporter());
    const traceId = await recordAgent(provider, new Date("2024-03-01T10:00:00Z"), {}, { ...MINI_CALL, "gen_ai.usage.cost": 0.0123 });
    await provider.shutdown();
    const { runs, totals } = await runsOf(traceId);
    const call = runs.find((run) => run.runType === "llm");
    expect(call).toMatchObject({ modelName: "gpt-4o-mini", usage: { inputTokens: 1000, outputTokens: 500 }, cost: { totalCost: "0.0123", source: "EXPLICIT" } });
    expect(totals.cost.totalCost).toBe("0.0123");
  });

  it("OpenInference's llm.cost.total (JSON exporter) is explicit too; without one the price table prices the call", async () => {
    const provider = providerWith(jsonExporter());
    const openInference: Attributes = {
      "openinference.span.kind": "LLM",
      "llm.model_name": "gpt-4o-mini",
      "llm.provider": "openai",
      "llm.token_count.prompt": 1000,
      "llm.token_count.completion": 500,
    };
    const reported = await recordAgent(provider, new Date("2024-03-01T11:00:00Z"), {}, { ...openInference, "llm.cost.total": 0.5 });
    const unreported = await recordAgent(provider, new Date("2024-03-01T12:00:00Z"), {}, MINI_CALL);
    await provider.shutdown();
    const reportedCall = (await runsOf(reported)).runs.find((run) => run.runType === "llm");
    expect(reportedCall).toMatchObject({ usage: { inputTokens: 1000, outputTokens: 500 }, cost: { totalCost: "0.5", source: "EXPLICIT" } });
    const pricedCall = (await runsOf(unreported)).runs.find((run) => run.runType === "llm");
    expect(pricedCall.cost).toEqual({ totalCost: "0.00045", source: "PRICE_TABLE" });
  });
});

describe("thread roll-ups of OTLP spans", () => {
  it("a model call counts under the conversation its root span carries, unless it names its own", async () => {
    const provider = providerWith(protoExporter());
    const day = "2024-04-02";
    await recordAgent(provider, new Date(`${day}T09:00:00Z`), { "gen_ai.conversation.id": "conv-root-only" }, MINI_CALL);
    await recordAgent(provider, new Date(`${day}T09:05:00Z`), { "gen_ai.conversation.id": "conv-root-only" }, MINI_CALL);
    // The call's own conversation id wins over its root's.
    await recordAgent(provider, new Date(`${day}T09:10:00Z`), { "gen_ai.conversation.id": "conv-root-only" }, {
      ...MINI_CALL,
      "gen_ai.request.model": "gpt-4o",
      "gen_ai.conversation.id": "conv-own",
    });
    await recordAgent(provider, new Date(`${day}T09:15:00Z`), {}, MINI_CALL);
    await provider.shutdown();

    const range = { from: `${day}T00:00:00Z`, to: `${day}T23:59:59Z` };
    const byThread = await graphql(ROLLUP_QUERY, { ...range, groupBy: ["THREAD"] });
    // Two agents of conv-root-only (2 runs each); gpt-4o 1000/500 is 0.0075, and its agent span belongs to conv-root-only.
    expect(byThread.usageSummary.map((row: any) => [row.thread, row.runCount, row.totalTokens, row.totalCost])).toEqual([
      ["conv-own", 1, 1500, "0.0075"],
      ["conv-root-only", 5, 3000, "0.0009"],
      [null, 2, 1500, "0.00045"],
    ]);
    const byThreadAndModel = await graphql(ROLLUP_QUERY, { ...range, groupBy: ["THREAD", "MODEL"] });
    expect(byThreadAndModel.usageSummary.map((row: any) => [row.thread, row.model, row.runCount])).toEqual([
      ["conv-own", "gpt-4o", 1],
      ["conv-root-only", "gpt-4o-mini", 2],
      [null, "gpt-4o-mini", 1],
      ["conv-root-only", null, 3],
      [null, null, 1],
    ]);
  });
});
