import { describe, expect, it } from "vitest";
import { readSystemAssistantDefaults } from "../../src/graphs/system-assistant-defaults.js";

describe("readSystemAssistantDefaults", () => {
  it("splits each graph's entry into config and context, and lists unknown graphs", () => {
    const { defaults, unknownGraphIds } = readSystemAssistantDefaults(
      JSON.stringify({ a: { configurable: { x: 1 }, context: { m: "y" } }, b: { tags: ["t"] }, zz: {} }),
      ["a", "b", "c"],
    );
    expect(defaults.get("a")).toEqual({ config: { configurable: { x: 1 } }, context: { m: "y" } });
    expect(defaults.get("b")).toEqual({ config: { tags: ["t"] }, context: undefined });
    expect(defaults.has("c")).toBe(false);
    expect(unknownGraphIds).toEqual(["zz"]);
  });

  it("unset or blank means no defaults", () => {
    expect(readSystemAssistantDefaults(undefined, ["a"]).defaults.size).toBe(0);
    expect(readSystemAssistantDefaults("  ", ["a"]).defaults.size).toBe(0);
  });

  it.each([
    ["{not json", /^LANGGRAPH_CONFIG is not valid JSON/],
    ["[1]", /^LANGGRAPH_CONFIG must be a JSON object keyed by graph id$/],
    ['{"a": 3}', /^LANGGRAPH_CONFIG\.a must be an object/],
    ['{"a": {"context": "x"}}', /^LANGGRAPH_CONFIG\.a\.context must be an object$/],
  ])("refuses %s naming the key", (value, message) => {
    expect(() => readSystemAssistantDefaults(value, ["a"])).toThrow(message);
  });
});
