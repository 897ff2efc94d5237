import { describe, expect, it } from "vitest";
import { checkAgainstSchema, defaultsFromSchema } from "../../web/src/lib/schema-check.js";

// The example agent's context schema, as the server prints it from zod.
const AGENT_CONTEXT = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    model_name: { default: "offline-echo", type: "string" },
    system_prompt: { default: "You are a helpful assistant.", type: "string" },
  },
  required: ["model_name", "system_prompt"],
  additionalProperties: false,
};

describe("checkAgainstSchema", () => {
  it("accepts a valid context, and fields with defaults may be left out", () => {
    expect(checkAgainstSchema({ model_name: "offline-echo", system_prompt: "Hi" }, AGENT_CONTEXT)).toEqual([]);
    expect(checkAgainstSchema({}, AGENT_CONTEXT)).toEqual([]);
  });

  it("names wrong types and unknown keys with their path", () => {
    expect(checkAgainstSchema({ model_name: 3, temperature: 0.2 }, AGENT_CONTEXT)).toEqual([
      { path: "model_name", message: "must be a string, not the number 3" },
      { path: "temperature", message: "is not allowed (known: model_name, system_prompt)" },
    ]);
  });

  it("requires required fields without a default", () => {
    const schema = { type: "object", properties: { user_id: { type: "string" } }, required: ["user_id"] };
    expect(checkAgainstSchema({}, schema)).toEqual([{ path: "user_id", message: "is required" }]);
  });

  it("checks nested objects, arrays, enums, bounds and local $refs", () => {
    const schema = {
      type: "object",
      $defs: { Tool: { type: "object", properties: { name: { type: "string", minLength: 1 } }, required: ["name"] } },
      properties: {
        tools: { type: "array", items: { $ref: "#/$defs/Tool" }, maxItems: 2 },
        mode: { enum: ["fast", "careful"] },
        temperature: { type: "number", minimum: 0, maximum: 2 },
        retries: { type: "integer" },
        label: { anyOf: [{ type: "string" }, { type: "null" }] },
      },
    };
    expect(
      checkAgainstSchema(
        { tools: [{ name: "" }, {}, { name: "x" }], mode: "slow", temperature: 3, retries: 1.5, label: 4 },
        schema,
      ),
    ).toEqual([
      { path: "tools", message: "must have at most 2 items" },
      { path: "tools[0].name", message: "must have at least 1 characters" },
      { path: "tools[1].name", message: "is required" },
      { path: "mode", message: 'must be one of "fast", "careful"' },
      { path: "temperature", message: "must be ≤ 2" },
      { path: "retries", message: "must be an integer, not a number" },
      { path: "label", message: "matches none of the allowed shapes" },
    ]);
  });

  it("ignores what it does not understand instead of refusing", () => {
    expect(checkAgainstSchema({ a: "x" }, { type: "object", properties: { a: { format: "uuid", $ref: "http://elsewhere" } } })).toEqual([]);
    expect(checkAgainstSchema({ a: "x" }, { type: "object", properties: { a: { type: "string", pattern: "(?<" } } })).toEqual([]);
  });

  it("stops on recursive schemas", () => {
    const schema = { $ref: "#/$defs/Node", $defs: { Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" } } } } };
    expect(checkAgainstSchema({ next: { next: { next: "x" } } }, schema)).toEqual([
      { path: "next.next.next", message: "must be an object, not a string" },
    ]);
  });
});

describe("defaultsFromSchema", () => {
  it("collects property defaults for a new assistant's context", () => {
    expect(defaultsFromSchema(AGENT_CONTEXT)).toEqual({ model_name: "offline-echo", system_prompt: "You are a helpful assistant." });
    expect(defaultsFromSchema(null)).toEqual({});
  });
});
