import { describe, expect, it } from "vitest";
import * as ownHelpers from "@langchain/langgraph/zod/schema";
import { loadSchemaReaders, OWN_SCHEMA_READERS } from "../../src/graphs/graph-schemas.js";

describe("loadSchemaReaders", () => {
  it("uses the helpers of the copy the graph module imports", async () => {
    const calls: string[] = [];
    const foreign = Object.fromEntries(
      ["getInputTypeSchema", "getOutputTypeSchema", "getStateTypeSchema", "getConfigTypeSchema"].map((name) => [
        name,
        () => {
          calls.push(name);
          return { type: "object", title: name };
        },
      ]),
    );
    const readers = await loadSchemaReaders(async (specifier) => {
      expect(specifier).toBe("@langchain/langgraph/zod/schema");
      return foreign;
    });
    expect(readers.state({})).toEqual({ type: "object", title: "getStateTypeSchema" });
    expect(readers.context({})).toEqual({ type: "object", title: "getConfigTypeSchema" });
    expect(calls).toEqual(["getStateTypeSchema", "getConfigTypeSchema"]);
  });

  it("falls back to Hangar's own copy when the module cannot be imported or lacks a helper", async () => {
    const problems: Error[] = [];
    const notFound = Object.assign(new Error("Cannot find package '@langchain/langgraph'"), { code: "ERR_MODULE_NOT_FOUND" });
    expect(await loadSchemaReaders(async () => Promise.reject(notFound), (error) => problems.push(error))).toBe(OWN_SCHEMA_READERS);
    expect(problems).toEqual([]);
    expect(await loadSchemaReaders(async () => ({ getStateTypeSchema: () => ({}) }))).toBe(OWN_SCHEMA_READERS);
    // Any other failure still falls back, but is reported rather than swallowed.
    const broken = new SyntaxError("Unexpected token in the copy's build");
    expect(await loadSchemaReaders(async () => Promise.reject(broken), (error) => problems.push(error))).toBe(OWN_SCHEMA_READERS);
    expect(problems).toEqual([broken]);
    // Hangar's readers are LangGraph's public helpers: a non-graph gives no schema.
    expect(OWN_SCHEMA_READERS.state({})).toBe(ownHelpers.getStateTypeSchema({}));
  });
});
