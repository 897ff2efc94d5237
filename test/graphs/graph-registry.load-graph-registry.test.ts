import { Command, Send } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphLoadError, loadGraphRegistry, type GraphRegistry } from "../../src/graphs/graph-registry.js";
import { createRecordingLog, fixturePath } from "./registry-test-helpers.js";

const ENV_KEYS = ["HANGAR_FIXTURE_INLINE", "HANGAR_FIXTURE_PRESET"];

describe("loadGraphRegistry", () => {
  let registry: GraphRegistry;
  const log = createRecordingLog();

  beforeAll(async () => {
    process.env.HANGAR_FIXTURE_PRESET = "from-operator";
    ({ registry } = await loadGraphRegistry(fixturePath("valid.langgraph.json"), log));
  });
  afterAll(() => {
    for (const key of ENV_KEYS) delete process.env[key];
  });

  it("loads a compiled graph, an uncompiled JS StateGraph and an async factory, in config order", () => {
    expect(registry.names()).toEqual(["compiled", "builder", "factory"]);
    expect(registry.has("builder")).toBe(true);
    expect(registry.has("nope")).toBe(false);
    expect(log.lines.filter((line) => line.message === "graph loaded")).toHaveLength(3);
  });

  it("applies config env before importing, without overriding the operator's values", () => {
    expect(process.env.HANGAR_FIXTURE_INLINE).toBe("from-config");
    expect(process.env.HANGAR_FIXTURE_PRESET).toBe("from-operator");
  });

  it("resolves runnable graphs for every kind of export", async () => {
    const compiled = await registry.resolve("compiled");
    await expect(compiled.invoke({ topic: "cats" }, { context: {} })).resolves.toEqual({
      topic: "cats",
      answer: "deep:cats!",
    });
    const builder = await registry.resolve("builder");
    await expect(builder.invoke({ count: 41 })).resolves.toEqual({ count: 42, note: "incremented" });
  });

  it("calls factories again with the run's config", async () => {
    const fromDefault = await registry.resolve("factory");
    await expect(fromDefault.invoke({})).resolves.toEqual({ greeting: "hello world" });
    const fromConfig = await registry.resolve("factory", { config: { configurable: { name: "hangar" } } });
    await expect(fromConfig.invoke({})).resolves.toEqual({ greeting: "hello hangar" });
    expect(fromConfig).not.toBe(fromDefault);
  });

  it("lists node names (a factory's from the graph it builds) and the graph's LangGraph classes", async () => {
    expect(await registry.nodeNames("compiled")).toEqual(["__start__", "child", "finish"]);
    expect(await registry.nodeNames("builder")).toEqual(["__start__", "increment"]);
    expect(await registry.nodeNames("factory", { config: { configurable: { name: "x" } } })).toEqual(["__start__", "greet"]);
    // These modules resolve the server's own copy, which they share.
    expect(registry.libraryOf("compiled")).toEqual({ Command, Send });
  });

  it("attaches checkpointer and store to the resolved graph", async () => {
    const checkpointer = { marker: "checkpointer" };
    const store = { marker: "store" };
    const graph = await registry.resolve("builder", { checkpointer, store });
    expect(graph.checkpointer).toBe(checkpointer);
    expect(graph.store).toBe(store);
  });

  it("serves JSON schemas from zod state and context schemas", async () => {
    const schemas = await registry.getSchemas("compiled");
    expect(schemas.graph_id).toBe("compiled");
    expect(schemas.state_schema).toMatchObject({
      type: "object",
      properties: { topic: { type: "string" }, answer: { type: "string" } },
    });
    expect(schemas.input_schema).toMatchObject({ properties: { topic: { type: "string" } } });
    expect(schemas.output_schema).toMatchObject({ properties: { answer: { type: "string" } } });
    expect(schemas.context_schema).toMatchObject({
      properties: { tone: { type: "string", default: "plain", description: "How answers sound" } },
    });
    // The context schema is also the config schema, as LangGraph's JS server serves it.
    expect(schemas.config_schema).toEqual(schemas.context_schema);
    // Cached: the same objects come back.
    expect((await registry.getSchemas("compiled")).state_schema).toBe(schemas.state_schema);
  });

  // Annotation state has no runtime types: the graphs' types are compiled (seconds), here from
  // plain JavaScript, where TypeScript infers what it can (count: number; note: anything).
  it("describes Annotation state by its inferred types", { timeout: 120_000 }, async () => {
    const schemas = await registry.getSchemas("builder");
    expect(schemas.state_schema).toMatchObject({ type: "object", properties: { count: { type: "number" }, note: {} } });
    expect(schemas.input_schema).toMatchObject({ type: "object", properties: { count: {}, note: {} } });
    // No context declared: nothing to describe.
    expect(schemas.context_schema).toBeNull();
    expect(schemas.config_schema).toBeNull();
  });

  it("lists subgraphs by namespace, recursing on request", async () => {
    const direct = await registry.getSubgraphs("compiled");
    expect(Object.keys(direct)).toEqual(["child"]);
    expect(direct.child).toMatchObject({ graph_id: "compiled", state_schema: { type: "object" } });

    const all = await registry.getSubgraphs("compiled", { recurse: true });
    expect(Object.keys(all).sort()).toEqual(["child", "child|grandchild"]);

    const one = await registry.getSubgraphs("compiled", { namespace: "child|grandchild", recurse: true });
    expect(Object.keys(one)).toEqual(["child|grandchild"]);
    expect(await registry.getSubgraphs("builder")).toEqual({});
  });

  it("draws graphs as nodes and edges, expanding subgraphs with xray", async () => {
    const drawing = await registry.getDrawing("compiled");
    expect(drawing.nodes.map((node) => node.id)).toEqual(["__start__", "child", "finish", "__end__"]);
    expect(drawing.edges).toContainEqual({ source: "child", target: "finish", conditional: false });

    const xray = await registry.getDrawing("compiled", { xray: true });
    expect(xray.nodes.map((node) => node.id)).toEqual(
      expect.arrayContaining(["child:prepare", "child:grandchild"]),
    );
  });

  it("rejects unknown graph ids with a plain Error", async () => {
    await expect(registry.getSchemas("nope")).rejects.toThrow('Unknown graph "nope"; deployed graphs: compiled, builder, factory');
    await expect(registry.resolve("nope")).rejects.not.toBeInstanceOf(GraphLoadError);
  });
});

describe("loadGraphRegistry failures", () => {
  const cases: Array<[string, string, RegExp]> = [
    ["missing-file.langgraph.json", 'Graph "ghost" (./does-not-exist.ts:graph) could not be loaded: ', /Cannot find module/],
    ["missing-export.langgraph.json", 'Graph "agent" (./compiled-graph.ts:nope) could not be loaded: ', /has no export "nope" \(it exports: graph\)/],
    ["throwing.langgraph.json", 'Graph "broken" (./throwing-module.ts) could not be loaded: ', /OPENAI_API_KEY is required/],
    ["not-a-graph.langgraph.json", 'Graph "object" (./garbage-exports.ts:notAGraph) could not be loaded: ', /is a plain object; expected a compiled graph/],
    ["bad-factory.langgraph.json", 'Graph "factory" (./garbage-exports.ts:badFactory) could not be loaded: ', /the factory's result is a number/],
    ["class-export.langgraph.json", 'Graph "klass" (./garbage-exports.ts:SomeState) could not be loaded: ', /is the class SomeState/],
  ];

  it.each(cases)("%s stops start-up with a GraphLoadError naming graph, spec and cause", async (file, prefix, cause) => {
    const error = await loadGraphRegistry(fixturePath(file), createRecordingLog()).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(GraphLoadError);
    const message = (error as GraphLoadError).message;
    expect(message.startsWith(prefix)).toBe(true);
    expect(message).toMatch(cause);
    expect((error as GraphLoadError).cause).toBeInstanceOf(Error);
  });
});
