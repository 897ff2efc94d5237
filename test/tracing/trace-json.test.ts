// langsmith's own payload serializer, exported by the package under lib/: the reference this
// module must agree with (a langsmith upgrade that changes its markers shows up here).
import { serialize as langsmithSerialize } from "langsmith/lib/utils/fast-safe-stringify/index";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CIRCULAR_MARKER, toTraceJson, UNSERIALIZABLE_MARKER } from "../../src/tracing/trace-json.js";

/** What LangSmith's client sends for `value`, parsed back. */
function asLangSmithStoresIt(value: unknown): unknown {
  return JSON.parse(new TextDecoder().decode(langsmithSerialize(value)));
}

// LangSmith's serializer warns on the console for every circular payload.
beforeAll(() => {
  vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterAll(() => {
  vi.restoreAllMocks();
});

function modelClient() {
  return {
    name: "client",
    maxTokens: 4096n,
    onToken: () => {},
    createdAt: new Date("2026-11-26T00:00:00.000Z"),
    pattern: /^gpt-/i,
    lastError: new TypeError("socket hang up"),
    tags: new Set(["a", "b"]),
    sockets: new Map([["api.example", { open: 2 }]]),
    ratio: Number.POSITIVE_INFINITY,
    list: [1, undefined, () => {}, 2n],
    missing: undefined,
  };
}

describe("toTraceJson", () => {
  it("converts well-known types and BigInt and drops functions, as LangSmith's client does", () => {
    const payload = { inputs: { client: modelClient(), question: "hi" } };
    const converted = toTraceJson(payload);
    expect(converted).toEqual(asLangSmithStoresIt(payload));
    expect(converted).toEqual({
      inputs: {
        question: "hi",
        client: {
          name: "client",
          maxTokens: "4096",
          createdAt: "2026-11-26T00:00:00.000Z",
          pattern: "/^gpt-/i",
          lastError: { name: "TypeError", message: "socket hang up" },
          tags: ["a", "b"],
          sockets: { "api.example": { open: 2 } },
          ratio: null,
          list: [1, null, null, "2"],
        },
      },
    });
  });

  it("marks a reference back to an ancestor as LangSmith's client does", () => {
    const pool: { owner: unknown; size: number } = { owner: null, size: 2 };
    const client = { name: "client", pool, onToken: () => {} };
    pool.owner = client;
    const payload = { inputs: { client } };
    expect(toTraceJson(payload)).toEqual(asLangSmithStoresIt(payload));
    expect(toTraceJson(payload)).toEqual({ inputs: { client: { name: "client", pool: { owner: { result: CIRCULAR_MARKER }, size: 2 } } } });
  });

  it("keeps the rest of a payload that holds a cycle and a BigInt, which LangSmith's client loses whole", () => {
    const client: Record<string, unknown> = { maxTokens: 4096n, note: "kept" };
    client.self = client;
    // LangSmith's circular fallback serializes without its BigInt handling, so the whole payload
    // becomes one non-JSON text; here only the cycle is marked.
    expect(new TextDecoder().decode(langsmithSerialize({ client }))).toMatch(/^\[unable to serialize/);
    expect(toTraceJson({ client })).toEqual({ client: { maxTokens: "4096", note: "kept", self: { result: CIRCULAR_MARKER } } });
  });

  it("agrees with LangSmith on a live Node timer, whose fields link back into the timer list", () => {
    // A duration no other timer of the test process has: its timer list holds this timer alone.
    const timer = setInterval(() => {}, 987_654);
    try {
      const payload = { client: { keepAlive: timer } };
      expect(toTraceJson(payload)).toEqual(asLangSmithStoresIt(payload));
      expect(JSON.stringify(toTraceJson(payload))).toContain(`{"result":"${CIRCULAR_MARKER}"}`);
    } finally {
      clearInterval(timer);
    }
  });

  it("writes an object reached twice on different paths twice (only a cycle is marked)", () => {
    const shared = { id: 1 };
    const payload = { a: shared, b: [shared, shared] };
    expect(toTraceJson(payload)).toEqual({ a: { id: 1 }, b: [{ id: 1 }, { id: 1 }] });
    expect(toTraceJson(payload)).toEqual(asLangSmithStoresIt(payload));
  });

  it("honours toJSON, and marks only the value whose getter or toJSON throws", () => {
    const withThrowingGetter = {
      kept: "yes",
      get secret(): string {
        throw new Error("closed");
      },
    };
    const withThrowingToJson = { toJSON: () => { throw new Error("nope"); } };
    expect(toTraceJson({ a: withThrowingGetter, b: withThrowingToJson, c: { toJSON: () => "custom" } })).toEqual({
      a: { kept: "yes", secret: UNSERIALIZABLE_MARKER },
      b: UNSERIALIZABLE_MARKER,
      c: "custom",
    });
  });

  it("leaves plain JSON as it is, and a top-level function as nothing", () => {
    const plain = { messages: [{ role: "user", content: "hi" }], n: 1, ok: true, none: null };
    expect(toTraceJson(plain)).toEqual(plain);
    expect(toTraceJson(() => {})).toBeUndefined();
    expect(toTraceJson(7n)).toBe("7");
  });
});
