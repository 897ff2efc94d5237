import { gzipSync } from "node:zlib";
import protobuf from "protobufjs";
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { otlpTraceMessages } from "../../src/tracing/otlp/otlp-trace-messages.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Malformed OTLP bodies: 400 with an OTLP (google.rpc.Status) body naming the problem, nothing stored.
let server: TestServer;
const TRACE_ID = "5b8efff798038103d269b633813fc60c";

beforeAll(async () => {
  server = await startTestServer({ apiKeys: ["k"] });
});

afterAll(async () => {
  await server?.close();
});

function span(overrides: Record<string, unknown> = {}) {
  return {
    traceId: TRACE_ID,
    spanId: "eee19b7ec3c1b174",
    name: "chat",
    kind: 3,
    startTimeUnixNano: "1735689600000000000",
    endTimeUnixNano: "1735689601500000000",
    attributes: [{ key: "gen_ai.operation.name", value: { stringValue: "chat" } }],
    ...overrides,
  };
}

function request(spans: unknown[]) {
  return { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: "t" }, spans }] }] };
}

async function post(body: BodyInit, headers: Record<string, string> = { "content-type": "application/json" }) {
  return server.request("/otel/v1/traces", { method: "POST", headers, body });
}

async function traceRunCount(): Promise<number> {
  const response = await server.request("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "{ traces(rootsOnly: false) { totalCount } }" }),
  });
  return ((await response.json()) as any).data.traces.totalCount;
}

describe("OTLP bad input", () => {
  it.each([
    ["not JSON", "{resourceSpans:", /body is not JSON/],
    ["a list", "[]", /ExportTraceServiceRequest object/],
    ["a bad trace id", JSON.stringify(request([span({ traceId: "xyz" })])), /resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.traceId must be 32 hex digits/],
    ["a bad time", JSON.stringify(request([span({ startTimeUnixNano: "soon" })])), /startTimeUnixNano must be an unsigned integer/],
    ["a bad attribute", JSON.stringify(request([span({ attributes: [{ key: "n", value: { intValue: "1.5" } }] })])), /attributes\[0\] \(n\): intValue must be an integer/],
    ["spans not a list", JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: {} }] }] }), /spans must be an array/],
  ])("JSON body with %s: 400 naming the problem, nothing stored", async (_case, body, message) => {
    const before = await traceRunCount();
    const response = await post(body);
    expect(response.status).toBe(400);
    const status = (await response.json()) as { code: number; message: string };
    expect(status.code).toBe(3);
    expect(status.message).toMatch(message);
    expect(await traceRunCount()).toBe(before);
  });

  it("a protobuf body that is not an ExportTraceServiceRequest: 400 with a protobuf Status", async () => {
    const response = await post(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]), { "content-type": "application/x-protobuf" });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/x-protobuf");
    const bytes = Buffer.from(await response.arrayBuffer());
    // google.rpc.Status: field 1 (code) = 3, field 2 (message) names the problem.
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0x08, 0x03]));
    expect(bytes.toString("utf8")).toContain("not a protobuf ExportTraceServiceRequest");
  });

  it("a body that claims gzip but is not: 400", async () => {
    const response = await post("plain", { "content-type": "application/json", "content-encoding": "gzip" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).message).toMatch(/not valid gzip data/);
  });

  it("an unsupported content type: 415", async () => {
    const response = await post("x", { "content-type": "text/plain" });
    expect(response.status).toBe(415);
    expect(((await response.json()) as any).message).toMatch(/application\/x-protobuf or application\/json/);
  });

  it("a span without ids is rejected in the partial-success answer; the others are stored", async () => {
    const body = new Uint8Array(gzipSync(JSON.stringify(request([span(), span({ spanId: "", name: "orphan" })]))));
    const response = await post(body, { "content-type": "application/json", "content-encoding": "gzip" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ partialSuccess: { rejectedSpans: 1, errorMessage: "span 'orphan': spanId is missing or all zeros" } });
    const stored = await server.request("/tracing/runs/5b8efff7-9803-8103-eee1-9b7ec3c1b174");
    expect(stored.status).toBe(200);
    expect(await stored.json()).toMatchObject({
      run_type: "llm",
      start_time: "2025-01-01T00:00:00.000000Z",
      end_time: "2025-01-01T00:00:01.500000Z",
      trace_id: "5b8efff7-9803-8103-d269-b633813fc60c",
    });
  });

  it("a full success answers an empty ExportTraceServiceResponse", async () => {
    const response = await post(JSON.stringify(request([span({ spanId: "0000000000000abc" })])));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
  });

  it("protobuf: a span with an all-zero span id comes back in a protobuf partial success the OTel serializer reads", async () => {
    const recorded = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: recorded })] });
    provider.getTracer("t").startSpan("kept").end();
    provider.getTracer("t").startSpan("zeroed").end();
    const [kept, zeroed] = recorded.getFinishedSpans();
    const context = zeroed.spanContext();
    const broken: ReadableSpan = Object.assign(Object.create(Object.getPrototypeOf(zeroed)), zeroed, {
      spanContext: () => ({ ...context, spanId: "0000000000000000" }),
    });
    const body = ProtobufTraceSerializer.serializeRequest([kept, broken])!;
    const response = await post(new Uint8Array(body), { "content-type": "application/x-protobuf" });
    expect(response.status).toBe(200);
    const answer = ProtobufTraceSerializer.deserializeResponse(new Uint8Array(await response.arrayBuffer()));
    expect(Number(answer.partialSuccess?.rejectedSpans)).toBe(1);
    expect(answer.partialSuccess?.errorMessage).toBe("span 'zeroed': spanId is missing or all zeros");
    await provider.shutdown();
  });

  it("attribute values nested deeper than 100 levels: 400 in JSON and in protobuf, nothing stored", async () => {
    let json: unknown = { stringValue: "leaf" };
    for (let level = 0; level < 120; level++) json = { arrayValue: { values: [json] } };
    const before = await traceRunCount();
    const jsonResponse = await post(JSON.stringify(request([span({ attributes: [{ key: "deep", value: json }] })])));
    expect(jsonResponse.status).toBe(400);
    expect(((await jsonResponse.json()) as any).message).toMatch(/deeper than 100 levels/);

    // The official exporters cannot nest so deep; Hangar's own message declarations encode it
    // (the other OTLP tests check those declarations against the exporters' bytes).
    const Request = otlpTraceMessages().request;
    const bytes = (hex: string) => Buffer.from(hex, "hex");
    // protobufjs refuses to build so deep a message by default; this test's encoder is allowed to
    // (the server's decoder keeps its own limit, Reader.recursionLimit).
    const encoderLimit = protobuf.util.recursionLimit;
    protobuf.util.recursionLimit = 10_000;
    let body: Uint8Array;
    try {
      const message = Request.fromObject({
        resourceSpans: [{ scopeSpans: [{ spans: [{ ...span(), traceId: bytes(TRACE_ID), spanId: bytes("00000000000000fe"), attributes: [{ key: "deep", value: json }] }] }] }],
      });
      body = Request.encode(message).finish();
    } finally {
      protobuf.util.recursionLimit = encoderLimit;
    }
    const protobufResponse = await post(new Uint8Array(body), { "content-type": "application/x-protobuf" });
    expect(protobufResponse.status).toBe(400);
    expect(Buffer.from(await protobufResponse.arrayBuffer()).toString("utf8")).toMatch(/max depth exceeded|deeper than 100 levels/);
    expect(await traceRunCount()).toBe(before);
  });

  it("text PostgreSQL cannot store (NUL) is stored as U+FFFD with a warning", async () => {
    const attributes = [{ key: "gen_ai.input.messages", value: { stringValue: JSON.stringify([{ role: "user", parts: [{ type: "text", content: "a\u0000b" }] }]) } }];
    const response = await post(JSON.stringify(request([span({ spanId: "00000000000000ab", attributes: [...span().attributes, ...attributes] })])));
    expect(response.status).toBe(200);
    const stored = (await (await server.request("/tracing/runs/5b8efff7-9803-8103-0000-0000000000ab")).json()) as any;
    expect(stored.rendered.input_messages[0].content[0].text).toBe("a\ufffdb");
    expect(stored.warnings.join("\n")).toMatch(/U\+FFFD|replaced/);
  });
});
