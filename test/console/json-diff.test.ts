import { describe, expect, it } from "vitest";
import { diffJson, diffVersions, isDeepEqual } from "../../web/src/lib/json-diff.js";
import { parseJsonObject, parseLooseJson } from "../../web/src/lib/json-input.js";

describe("diffJson", () => {
  it("lists changed, added and removed keys by readable path, nested objects included", () => {
    const before = { model_name: "offline-echo", system_prompt: "You are terse.", limits: { tokens: 100, tools: ["a", "b"] }, old: 1 };
    const after = { model_name: "offline-echo", system_prompt: "You are verbose.", limits: { tokens: 200, tools: ["a"] }, "new key": true };
    expect(diffJson(before, after)).toEqual([
      { path: "system_prompt", kind: "changed", before: "You are terse.", after: "You are verbose." },
      { path: "limits.tokens", kind: "changed", before: 100, after: 200 },
      { path: "limits.tools[1]", kind: "removed", before: "b" },
      { path: "old", kind: "removed", before: 1 },
      { path: '["new key"]', kind: "added", after: true },
    ]);
  });

  it("reports nothing for equal values whatever their key order", () => {
    expect(diffJson({ a: 1, b: { c: [1, { d: null }] } }, { b: { c: [1, { d: null }] }, a: 1 })).toEqual([]);
    expect(isDeepEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
  });

  it("treats a change of type as one change at that path, not a cascade", () => {
    expect(diffJson({ tools: { a: 1 } }, { tools: ["a"] })).toEqual([
      { path: "tools", kind: "changed", before: { a: 1 }, after: ["a"] },
    ]);
    expect(diffJson(1, 2)).toEqual([{ path: "(value)", kind: "changed", before: 1, after: 2 }]);
  });

  it("compares the edited fields of two assistant versions", () => {
    const v1 = { name: "bot", description: null, graphId: "agent", context: { system_prompt: "a" }, metadata: {}, config: {} };
    const v2 = { ...v1, name: "bot 2", context: { system_prompt: "b" }, metadata: { team: "x" } };
    expect(diffVersions(v1, v2).map((entry) => `${entry.kind} ${entry.path}`)).toEqual([
      "changed name",
      "changed context.system_prompt",
      "added metadata.team",
    ]);
  });
});

describe("parseJsonObject", () => {
  it("accepts objects and treats an empty field as {}", () => {
    expect(parseJsonObject('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonObject("  ")).toEqual({ ok: true, value: {} });
  });

  it("points at the line and column of a syntax error", () => {
    const result = parseJsonObject('{\n  "a": 1,\n  b: 2\n}');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toMatch(/^Invalid JSON/);
    expect(result.line).toBe(3);
    expect(result.column).toBe(3);
  });

  it("refuses JSON that is not an object", () => {
    expect(parseJsonObject("[1]")).toMatchObject({ ok: false, message: "Must be a JSON object ({…}), not an array" });
    expect(parseJsonObject("null")).toMatchObject({ ok: false, message: "Must be a JSON object ({…}), not null" });
    expect(parseJsonObject('"x"')).toMatchObject({ ok: false, message: "Must be a JSON object ({…}), not a string" });
  });
});

describe("parseLooseJson", () => {
  it("reads JSON when it parses and keeps plain text otherwise", () => {
    expect(parseLooseJson('{"approved": true}')).toEqual({ approved: true });
    expect(parseLooseJson("42")).toBe(42);
    expect(parseLooseJson("yes please")).toBe("yes please");
  });
});
