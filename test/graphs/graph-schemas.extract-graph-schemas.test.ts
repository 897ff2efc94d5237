import { describe, expect, it } from "vitest";
import { extractGraphSchemas, OWN_SCHEMA_READERS, type SchemaReaders } from "../../src/graphs/graph-schemas.js";
import { stateSchema } from "../fixtures/messages/message-states.js";

/**
 * LangGraph 1.7's schema helpers, with zod 3.25's `zod/v4` (the official test graphs' set-up),
 * describe a StateSchema's reduced values (MessagesValue) and leave its plain zod fields out.
 * These readers answer as those helpers did for `new StateSchema({messages: MessagesValue, topic})`.
 */
function readersLeavingOut(field: string): SchemaReaders {
  const without = (schema: unknown) => {
    const { properties, ...rest } = schema as { properties: Record<string, unknown> };
    return { ...rest, properties: Object.fromEntries(Object.entries(properties).filter(([name]) => name !== field)) };
  };
  return {
    ...OWN_SCHEMA_READERS,
    state: (graph) => without(OWN_SCHEMA_READERS.state(graph)),
    output: (graph) => without(OWN_SCHEMA_READERS.output(graph)),
    input: (graph) => without(OWN_SCHEMA_READERS.input(graph)),
  };
}

describe("extractGraphSchemas", () => {
  it("names every state and output channel the runtime helpers leave out, keeping what they described", () => {
    const { schemas } = extractGraphSchemas("state_schema", stateSchema as never, readersLeavingOut("topic"));
    for (const kind of ["state_schema", "output_schema"] as const) {
      const properties = schemas[kind]!.properties as Record<string, Record<string, unknown>>;
      expect(Object.keys(properties).sort(), kind).toEqual(["messages", "topic"]);
      expect(properties.topic, kind).toEqual({});
      expect(properties.messages, kind).toMatchObject({ langgraph_type: "messages" });
    }
    // A graph's input may be narrower than its state: it stays as described.
    expect(Object.keys(schemas.input_schema!.properties as object)).toEqual(["messages"]);
  });

  it("keeps the helpers' description of a channel they did describe", () => {
    const { schemas } = extractGraphSchemas("state_schema", stateSchema as never, OWN_SCHEMA_READERS);
    const properties = schemas.state_schema!.properties as Record<string, Record<string, unknown>>;
    expect(properties.topic).toMatchObject({ type: "string" });
  });
});
