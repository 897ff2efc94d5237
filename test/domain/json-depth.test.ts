import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../src/domain/input-bounds.js";
import { findTooDeepJsonText, findTooDeepValue, parseJsonText } from "../../src/domain/json-depth.js";
import { findTooDeepDocument } from "../../src/graphql/bounded-input.js";

const nested = (levels: number, inner = "1") => "[".repeat(levels) + inner + "]".repeat(levels);

describe("findTooDeepJsonText", () => {
  it("accepts exactly the limit and refuses one level more, naming the path and position", () => {
    expect(findTooDeepJsonText(nested(MAX_JSON_DEPTH), "body")).toBeNull();
    const text = `{"metadata": {"list": [0, ${nested(MAX_JSON_DEPTH - 2)}]}}`;
    expect(findTooDeepJsonText(text, "body")).toEqual({ path: "body.metadata.list[1][0][0][0][0][0]…", position: text.indexOf("[[") + MAX_JSON_DEPTH - 3 });
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    const inString = JSON.stringify({ a: "[".repeat(500), b: '\\"[[[[', c: "\\" });
    expect(findTooDeepJsonText(inString, "body")).toBeNull();
    expect(findTooDeepJsonText(`{"a": "\\\\", "b": ${nested(MAX_JSON_DEPTH + 1)}}`, "body")?.path).toMatch(/^body\.b\[0\]/);
  });

  it("names keys with escapes as they decode", () => {
    const text = `{"we\\"ird.key": ${nested(MAX_JSON_DEPTH)}}`;
    expect(findTooDeepJsonText(text, "variables")?.path).toMatch(/^variables\.we"ird\.key\[0\]/);
  });

  it("agrees with the walk over the parsed value", () => {
    for (const levels of [1, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1, 5_000]) {
      const text = `{"a": ${nested(levels - 1)}}`;
      expect(findTooDeepJsonText(text, "x") === null).toBe(findTooDeepValue(JSON.parse(text), "x") === null);
    }
    expect(findTooDeepValue(JSON.parse(`{"a": {"b": ${nested(MAX_JSON_DEPTH)}}}`), "variables")?.path).toBe("variables.a.b[0][0][0][0][0][0]…");
  });

  it("parses within the limit and reports syntax and depth apart", () => {
    expect(parseJsonText('{"a": [1]}', "body")).toMatchObject({ ok: true, value: { a: [1] } });
    expect(parseJsonText('{"a": ', "body")).toMatchObject({ ok: false, problem: "syntax", message: expect.stringMatching(/^body is not valid JSON/) });
    expect(parseJsonText(nested(200_000), "body")).toMatchObject({ ok: false, problem: "depth" });
  });
});

describe("findTooDeepDocument", () => {
  it("counts braces, brackets and parentheses outside strings, block strings and comments", () => {
    expect(findTooDeepDocument(`{ a${"{ b ".repeat(MAX_JSON_DEPTH - 1)}${"}".repeat(MAX_JSON_DEPTH)}`)).toBeNull();
    expect(findTooDeepDocument(`{ a${"{ b ".repeat(MAX_JSON_DEPTH)}${"}".repeat(MAX_JSON_DEPTH + 1)}`)).not.toBeNull();
    const noise = `# ${"{".repeat(500)}\n{ f(a: "${"[".repeat(500)}\\"", b: """${"(".repeat(500)} \\""" """) }`;
    expect(findTooDeepDocument(noise)).toBeNull();
    expect(findTooDeepDocument(`{ f(a: ${nested(MAX_JSON_DEPTH)}) }`)).not.toBeNull();
  });
});
