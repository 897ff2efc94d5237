import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AIMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { Command, MemorySaver, messagesStateReducer } from "@langchain/langgraph";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaType } from "@modelcontextprotocol/sdk/validation/types.js";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerSdkLogger } from "../../src/graphs/graph-logger.js";
import { loadGraphRegistry, type GraphRegistry, type GraphSchemas } from "../../src/graphs/graph-registry.js";
import { createLogger } from "../../src/logger.js";
import { toWireValue } from "../../src/graphs/serialize-graph-value.js";
import { findUnsatisfiableParts } from "../helpers/unsatisfiable-schema-parts.js";
import { createRecordingLog } from "./registry-test-helpers.js";

// Every graph of the example deployment and of the test fixtures, in one deployment (one
// compilation of their TypeScript types), with schemas from types on as `hangar serve` has them.
const ROOT = path.resolve(import.meta.dirname, "../..");
const DEPLOYMENTS = [path.join(ROOT, "examples"), path.join(ROOT, "test/fixtures")];
// Graph specs that are broken on purpose (start-up must fail on them).
const BROKEN = /does-not-exist/;

const SCHEMA_KINDS = ["input_schema", "output_schema", "state_schema", "config_schema", "context_schema"] as const;

function deploymentConfigs(directory: string): string[] {
  return fs
    .readdirSync(directory, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith("langgraph.json") && !name.includes("node_modules"))
    .map((name) => path.join(directory, name));
}

/** graph id → "absolute module path:export", one entry per distinct graph. */
function everyGraph(): Record<string, string> {
  const graphs: Record<string, string> = {};
  const seen = new Set<string>();
  for (const config of DEPLOYMENTS.flatMap(deploymentConfigs)) {
    const declared = (JSON.parse(fs.readFileSync(config, "utf8")) as { graphs: Record<string, string> }).graphs;
    for (const [graphId, spec] of Object.entries(declared)) {
      if (BROKEN.test(spec)) continue;
      const colon = spec.lastIndexOf(":");
      const absolute = `${path.resolve(path.dirname(config), spec.slice(0, colon))}:${spec.slice(colon + 1)}`;
      if (seen.has(absolute)) continue;
      seen.add(absolute);
      const prefix = path.relative(ROOT, path.dirname(config)).replace(/[^A-Za-z0-9]+/g, "_");
      graphs[`${prefix}__${graphId}`] = absolute;
    }
  }
  return graphs;
}

// Messages in every form LangGraph's reducer takes (each is checked against the reducer below).
const MESSAGE_FORMS: Record<string, unknown> = {
  "role/content": { role: "user", content: "hi" },
  "role/content blocks": { role: "user", content: [{ type: "text", text: "hi" }, { type: "image_url", image_url: { url: "https://example.com/a.png" } }] },
  "type/content": { type: "human", content: "hi" },
  "assistant with tool calls": { role: "assistant", content: "", tool_calls: [{ id: "call_1", name: "search", args: { q: "weather" } }] },
  "tool answer": { role: "tool", content: "sunny", tool_call_id: "call_1" },
  "Python client's nulls": { type: "ai", content: "hello", id: null, name: null, additional_kwargs: {}, response_metadata: {} },
  "LangChain-serialized": JSON.parse(JSON.stringify(new HumanMessage({ content: "hi", id: "m-ser" }))),
  "plain string": "hi",
  "[role, content] pair": ["user", "hi"],
  removal: { type: "remove", id: "m-1" },
};

// A thread's messages as Hangar sends state values (toDict form).
const STORED_MESSAGES = toWireValue([
  new SystemMessage("Be brief."),
  new HumanMessage({ content: "hi", id: "m-1" }),
  new AIMessage({ content: "", id: "m-2", tool_calls: [{ id: "call_1", name: "search", args: { q: "weather" }, type: "tool_call" }] }),
  new ToolMessage({ content: "sunny", tool_call_id: "call_1", id: "m-3" }),
  new AIMessage({ content: [{ type: "text", text: "It is sunny." }], id: "m-4" }),
  new RemoveMessage({ id: "m-1" }),
]) as unknown[];

const ajv7 = new Ajv({ strict: false, allErrors: true });
const ajv2020 = new Ajv2020({ strict: false, allErrors: true });
/** Validates as the schema's own dialect says. */
const compiled = new WeakMap<object, ValidateFunction>();
function validate(schema: Record<string, unknown>, value: unknown): string[] {
  const ajv = String(schema.$schema ?? "").includes("2020-12") ? ajv2020 : ajv7;
  const check = compiled.get(schema) ?? ajv.compile(schema);
  compiled.set(schema, check);
  return check(value) ? [] : (check.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}
/** Validates as MCP tools/call does (src/mcp/mcp-tools.ts: the MCP SDK's Ajv, `$schema` dropped). */
const mcpValidator = new AjvJsonSchemaValidator();
const mcpChecks = new WeakMap<object, (value: unknown) => { valid: boolean }>();
function validateAsMcp(schema: Record<string, unknown>, value: unknown): boolean {
  let check = mcpChecks.get(schema);
  if (check === undefined) {
    const { $schema: _dialect, ...rest } = schema;
    check = mcpValidator.getValidator({ ...rest, type: "object" } as JsonSchemaType);
    mcpChecks.set(schema, check);
  }
  return check(value).valid;
}

function messageChannels(schema: Record<string, unknown> | null): string[] {
  const properties = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.keys(properties).filter((name) => properties[name]?.langgraph_type === "messages");
}

let registry: GraphRegistry;
let directory: string;
const schemasByGraph = new Map<string, GraphSchemas>();
const graphs = everyGraph();

beforeAll(async () => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), "hangar-schemas-"));
  const config = path.join(directory, "langgraph.json");
  fs.writeFileSync(config, JSON.stringify({ graphs }));
  // A fixture calls the SDK's getLogger() at import time, as `hangar serve` lets it.
  registerSdkLogger(createLogger("silent"));
  ({ registry } = await loadGraphRegistry(config, createRecordingLog(), { schemasFromTypes: true }));
  await registry.prepareSchemas();
  for (const graphId of registry.names()) {
    schemasByGraph.set(graphId, await registry.getSchemas(graphId));
    for (const [namespace, schemas] of Object.entries(await registry.getSubgraphs(graphId, { recurse: true }))) {
      schemasByGraph.set(`${graphId} › ${namespace}`, schemas);
    }
  }
}, 240_000);

afterAll(() => {
  if (directory) fs.rmSync(directory, { recursive: true, force: true });
});

describe("schemas of every example and fixture graph", () => {
  it("covers the example graphs, the fixtures and their subgraphs", () => {
    expect(Object.keys(graphs)).toEqual(expect.arrayContaining(["examples__approval", "examples__agent", "test_fixtures_messages__plain"]));
    expect([...schemasByGraph.keys()].filter((name) => name.includes("›")).length).toBeGreaterThan(0);
  });

  it("have no unsatisfiable parts, and compile in their own dialect", { timeout: 120_000 }, () => {
    const problems: string[] = [];
    for (const [graphId, schemas] of schemasByGraph) {
      for (const kind of SCHEMA_KINDS) {
        const schema = schemas[kind];
        if (schema === null) continue;
        problems.push(...findUnsatisfiableParts(schema).map((problem) => `${graphId} ${kind} ${problem}`));
        expect(() => validate(schema, {}), `${graphId} ${kind}`).not.toThrow();
      }
    }
    expect(problems).toEqual([]);
  });

  it("the check finds `string & {}` as typescript-json-schema converts it", () => {
    const converted = { type: "object", properties: { role: { allOf: [{ type: "object", properties: {} }, { type: "string" }] } } };
    expect(findUnsatisfiableParts(converted)).toEqual(["#/properties/role: allOf of incompatible types (object, string)"]);
  });

  // Compiling a validator per schema (about 40) takes seconds on a loaded machine.
  it("message channels take every form of message LangGraph's reducer takes, in input, state and output", { timeout: 120_000 }, () => {
    const withMessages = [...schemasByGraph].filter(([, schemas]) => messageChannels(schemas.input_schema).length > 0);
    expect(withMessages.map(([graphId]) => graphId)).toEqual(
      expect.arrayContaining([
        "examples__agent",
        "examples__approval",
        "test_fixtures_messages__plain",
        "test_fixtures_messages__zod_v3",
        "test_fixtures_messages__zod_v4",
        "test_fixtures_messages__state_schema",
        "test_fixtures_messages__typed_annotation",
        "test_fixtures_deployment_compat__typed",
      ]),
    );
    for (const [form, message] of Object.entries(MESSAGE_FORMS)) {
      // Realistic: LangGraph itself takes it (the removal names a message the thread has).
      expect(() => messagesStateReducer([new HumanMessage({ content: "earlier", id: "m-1" })], message as never), form).not.toThrow();
    }
    for (const [graphId, schemas] of withMessages) {
      for (const channel of messageChannels(schemas.input_schema)) {
        for (const [form, message] of Object.entries(MESSAGE_FORMS)) {
          expect(validate(schemas.input_schema!, { [channel]: [message] }), `${graphId} ${channel} ${form}`).toEqual([]);
          expect(validateAsMcp(schemas.input_schema!, { [channel]: [message] }), `${graphId} ${channel} ${form} (MCP)`).toBe(true);
        }
        // One message alone is an update too, unless LangGraph checks the input as a list (zod v4).
        const one = validate(schemas.input_schema!, { [channel]: MESSAGE_FORMS["role/content"] });
        if (graphId === "test_fixtures_messages__zod_v4") expect(one, `${graphId}: one message`).not.toEqual([]);
        else expect(one, `${graphId}: one message`).toEqual([]);
        expect(validate(schemas.input_schema!, { [channel]: [42] }), `${graphId}: a number is no message`).not.toEqual([]);
        expect(validate(schemas.input_schema!, { [channel]: [{ content: "no role" }] }), `${graphId}: neither role nor type`).not.toEqual([]);
      }
      for (const kind of ["state_schema", "output_schema"] as const) {
        const schema = schemas[kind]!;
        for (const channel of messageChannels(schema)) {
          const property = (schema.properties as Record<string, Record<string, unknown>>)[channel]!;
          expect(validate({ ...schema, required: [], properties: { [channel]: property } }, { [channel]: STORED_MESSAGES }), `${graphId} ${kind}`).toEqual([]);
        }
      }
    }
  });

  it("a message outside a message channel (TypeScript types) takes the same forms", () => {
    const schemas = schemasByGraph.get("test_fixtures_messages__typed_annotation")!;
    const pinned = (schemas.state_schema!.properties as Record<string, unknown>).pinned;
    const schema = { ...schemas.state_schema!, required: [], properties: { pinned } };
    expect(validate(schema, { pinned: null })).toEqual([]);
    expect(validate(schema, { pinned: STORED_MESSAGES[1] })).toEqual([]);
    expect(validate(schema, { pinned: MESSAGE_FORMS["role/content"] })).toEqual([]);
    expect(validate(schema, { pinned: 42 })).not.toEqual([]);
  });

  it("the approval example's state schema accepts its own checkpoint values, interrupted and finished", async () => {
    const schema = schemasByGraph.get("examples__approval")!.state_schema!;
    const graph = await registry.resolve("examples__approval", { checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "approval-schema" } };
    await graph.invoke({ messages: [{ role: "user", content: "Where is my parcel?" }] }, config);
    const interrupted = toWireValue(((await graph.getState(config)) as { values: unknown }).values);
    expect(interrupted).toMatchObject({ draft: expect.any(String), messages: [{ type: "human" }] });
    expect(validate(schema, interrupted)).toEqual([]);
    await graph.invoke(new Command({ resume: [{ type: "accept", args: null }] }), config);
    const finished = toWireValue(((await graph.getState(config)) as { values: unknown }).values);
    expect(finished).toMatchObject({ decision: "accept", messages: [{ type: "human" }, { type: "ai" }] });
    expect(validate(schema, finished)).toEqual([]);
  });
});
