import path from "node:path";
import { fileURLToPath } from "node:url";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { signUserToken } from "../helpers/user-tokens.js";

// Under custom auth, OTLP ingestion follows /tracing's rule: operators (a HANGAR_API_KEYS key) only.
const AUTH_DEPLOYMENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/auth.langgraph.json");
const API_KEY = "operator-key";
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ configPath: AUTH_DEPLOYMENT, apiKeys: [API_KEY] });
});

afterAll(async () => {
  await server?.close();
});

async function oneSpan(name: string): Promise<ReadableSpan> {
  const recorded = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: recorded })] });
  provider.getTracer("auth").startSpan(name).end();
  await provider.forceFlush();
  // Taken before shutdown, which empties the in-memory exporter.
  const [span] = recorded.getFinishedSpans();
  await provider.shutdown();
  return span;
}

async function exportWith(headers: Record<string, string>, span: ReadableSpan) {
  const exporter = new OTLPTraceExporter({ url: `${server.url}/otel/v1/traces`, headers });
  const result = await new Promise<{ code: number; error?: Error }>((resolve) => exporter.export([span], resolve));
  await exporter.shutdown();
  return result;
}

async function storedRun(span: ReadableSpan): Promise<number> {
  const { traceId, spanId } = span.spanContext();
  const hex = traceId.slice(0, 16) + spanId;
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return (await server.request(`/tracing/runs/${id}`)).status;
}

describe("OTLP ingestion under custom auth", () => {
  it("a user's token is refused (403) and nothing is stored", async () => {
    const span = await oneSpan("from a user");
    const result = await exportWith({ authorization: `Bearer ${await signUserToken("alice")}` }, span);
    expect(result.code).toBe(1);
    expect(result.error?.message).toMatch(/Forbidden|403/);
    expect(await storedRun(span)).toBe(404);
  });

  it("an operator key is accepted", async () => {
    const span = await oneSpan("from an operator");
    const result = await exportWith({ "x-api-key": API_KEY }, span);
    expect(result).toEqual({ code: 0 });
    expect(await storedRun(span)).toBe(200);
  });
});
