import { createRequire } from "node:module";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { Client } from "langsmith";
import type { initializeOTEL as InitializeOTEL } from "langsmith/experimental/otel/setup";
import { traceable } from "langsmith/traceable";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

/**
 * The langsmith SDK's own OpenTelemetry mode (LANGSMITH_TRACING=true, LANGSMITH_OTEL_ENABLED=true): traceable() runs
 * become OTel spans (the SDK's LangSmith-to-OTel translator), exported by LangSmith's OTLP exporter
 * to a running Hangar's /otel/v1/traces, and read back through GraphQL.
 *
 * Set up as LangSmith documents it: initializeOTEL() with its exporter aimed at Hangar. Two
 * frictions with Hangar's OpenTelemetry packages (the 3.x line, API 1.10), both worked around here
 * through public entry points only:
 * - initializeOTEL needs @opentelemetry/sdk-trace-base, a 2.x-only package whose API peer range
 *   stops below 1.10: a dev dependency here, its peer range widened in package.json's overrides;
 * - the ESM build of langsmith/experimental/otel/setup imports AsyncHooksContextManager, which
 *   context-async-hooks 3.x no longer exports (the import fails). The CommonJS build (the package's
 *   `require` condition) only uses it inside a try, skipped with skipGlobalContextManagerSetup; the
 *   context manager is 3.x's AsyncLocalStorageContextManager, set up as the OTel docs do.
 */
const { initializeOTEL } = createRequire(import.meta.url)("langsmith/experimental/otel/setup") as { initializeOTEL: typeof InitializeOTEL };
const API_KEY = "otel-traceable-key";
let server: TestServer;
let otel: ReturnType<typeof initializeOTEL>;
// As LangSmith's docs set them; restored afterwards.
const OTEL_ENV = { LANGSMITH_TRACING: "true", LANGSMITH_OTEL_ENABLED: "true" };
const previousEnv = Object.fromEntries(Object.keys(OTEL_ENV).map((name) => [name, process.env[name]]));

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [API_KEY] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  otel = initializeOTEL({ skipGlobalContextManagerSetup: true, exporterConfig: { url: `${server.url}/otel/v1/traces`, apiKey: API_KEY, projectName: "otel-traceable" } });
  Object.assign(process.env, OTEL_ENV);
});

afterAll(async () => {
  for (const [name, value] of Object.entries(previousEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await otel?.DEFAULT_LANGSMITH_SPAN_PROCESSOR.shutdown();
  trace.disable();
  context.disable();
  await server?.close();
});

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

describe("langsmith traceable() in OpenTelemetry mode", () => {
  it("exports a nested trace with an LLM call that reads back as a tree with names, run types, tokens and cost", async () => {
    const client = new Client({ apiUrl: `${server.url}/tracing`, apiKey: API_KEY, callerOptions: { maxRetries: 0 } });
    expect(client.tracingMode).toBe("otel");
    const chatModel = traceable(
      async (_input: { messages: { role: string; content: string }[] }) => ({
        choices: [{ index: 0, message: { role: "assistant", content: "Paris." }, finish_reason: "stop" }],
        usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 },
      }),
      { name: "ChatOpenAI", run_type: "llm", client, metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
    );
    const lookup = traceable(async (city: string) => ({ country: city === "Paris" ? "France" : "?" }), { name: "lookup-country", run_type: "tool", client });
    const agent = traceable(
      async (question: string) => {
        const reply = await chatModel({ messages: [{ role: "user", content: question }] });
        const country = await lookup("Paris");
        return { answer: reply.choices[0]!.message.content, ...country };
      },
      { name: "otel-agent", run_type: "chain", client, metadata: { user_id: "alice" } },
    );
    expect(await agent("What is the capital of France?")).toEqual({ answer: "Paris.", country: "France" });
    // Flushes the SDK's queue and, in OTel mode, LangSmith's span processor.
    await client.awaitPendingTraceBatches();

    const found = await graphql(`query { traces(first: 1, nameContains: "otel-agent") { edges { node { traceId } } } }`, {});
    const traceId: string = found.traces.edges[0].node.traceId;
    const data = await graphql(
      `query($traceId: ID!) { trace(traceId: $traceId) {
        totals { runCount usage { inputTokens outputTokens totalTokens } cost { totalCost } }
        runs(first: 10) { edges { node {
          traceRunId parentRunId name runType modelName warnings
          usage { inputTokens outputTokens totalTokens }
          cost { totalCost source }
          rendered { inputMessages { role content { ... on TextBlock { text } } } outputMessages { role content { ... on TextBlock { text } } } }
        } } } } }`,
      { traceId },
    );
    const runs: any[] = data.trace.runs.edges.map((edge: any) => edge.node);
    const named = (name: string) => runs.find((run) => run.name === name);
    const [root, llm, tool] = [named("otel-agent"), named("ChatOpenAI"), named("lookup-country")];
    expect([root?.runType, llm?.runType, tool?.runType]).toEqual(["chain", "llm", "tool"]);
    expect(root.parentRunId).toBeNull();
    expect([llm.parentRunId, tool.parentRunId]).toEqual([root.traceRunId, root.traceRunId]);
    expect(llm).toMatchObject({
      modelName: "gpt-4o-mini",
      usage: { inputTokens: 1000, outputTokens: 500, totalTokens: 1500 },
      cost: { totalCost: "0.00045", source: "PRICE_TABLE" },
    });
    expect(llm.rendered.inputMessages).toEqual([{ role: "USER", content: [{ text: "What is the capital of France?" }] }]);
    expect(llm.rendered.outputMessages).toEqual([{ role: "ASSISTANT", content: [{ text: "Paris." }] }]);
    expect(data.trace.totals).toEqual({ runCount: 3, usage: { inputTokens: 1000, outputTokens: 500, totalTokens: 1500 }, cost: { totalCost: "0.00045" } });
  });
});
