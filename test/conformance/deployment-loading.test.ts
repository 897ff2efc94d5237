import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createCapturedLog } from "../helpers/captured-log.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// A deployment written for LangGraph Platform: a graph exported as a Promise, a graph calling
// getLogger() from the SDK at import time, and LANGGRAPH_CONFIG in langgraph.json `env`.
const here = path.dirname(fileURLToPath(import.meta.url));
const DEPLOYMENT = path.resolve(here, "../fixtures/deployment-compat/langgraph.json");

const { logger, lines: logLines } = createCapturedLog();

let server: TestServer;

beforeAll(async () => {
  delete process.env.LANGGRAPH_CONFIG;
  server = await startTestServer({
    configPath: DEPLOYMENT,
    logger,
    env: { HANGAR_SCHEMAS_FROM_TYPES: "true" },
  });
});

afterAll(async () => {
  await server?.close();
});

describe("graph exports", () => {
  it("a graph exported as a Promise is awaited at start-up and runs", async () => {
    const result = await server.client.runs.wait(null, "promised", { input: { count: 41 } });
    expect(result).toEqual({ count: 42 });
    const drawing = await server.client.assistants.getGraph("promised");
    expect(drawing.nodes.map((node) => node.id)).toContain("increment");
  });
});

describe("getLogger() from @langchain/langgraph-sdk/logging", () => {
  it("writes through Hangar's logger with the run's ids and the graph's fields", async () => {
    const thread = await server.client.threads.create();
    let runId = "";
    const result = await server.client.runs.wait(thread.thread_id, "logging", {
      input: { note: "n-1" },
      onRunCreated: ({ run_id }) => {
        runId = run_id;
      },
    });
    expect(result).toEqual({ note: "logged n-1" });
    const line = logLines.find((entry) => entry.msg === "graph says hello");
    expect(line).toMatchObject({
      level: 30,
      component: "graph",
      note: "n-1",
      run_id: runId,
      thread_id: thread.thread_id,
      graph_id: "logging",
    });
  });
});

describe("LANGGRAPH_CONFIG", () => {
  it("gives each system assistant its graph's default config and context", async () => {
    const [promised] = await server.client.assistants.search({ graphId: "promised", metadata: { created_by: "system" } });
    expect(promised.config).toMatchObject({ configurable: { model_name: "from-env" } });
    expect(promised.context).toEqual({});
    const [runtime] = await server.client.assistants.search({ graphId: "runtime", metadata: { created_by: "system" } });
    expect(runtime.context).toEqual({ model: "from-env" });
    const [logging] = await server.client.assistants.search({ graphId: "logging", metadata: { created_by: "system" } });
    expect(logging.config).toEqual({});
  });

  it("a run on the system assistant gets that context; a run's own context wins", async () => {
    expect(await server.client.runs.wait(null, "runtime", { input: {} })).toEqual({ model: "from-env" });
    expect(await server.client.runs.wait(null, "runtime", { input: {}, context: { model: "mine" } })).toEqual({ model: "mine" });
  });

  it("names the graphs it does not know in a warning", () => {
    expect(logLines).toContainEqual(expect.objectContaining({ level: 40, graphIds: ["not_deployed"] }));
  });
});

describe("graph factories", () => {
  it("a state update as a node of a factory graph rebuilds it with the config of the thread's runs", async () => {
    const assistant = await server.client.assistants.create({ graphId: "dynamic", config: { configurable: { node_name: "custom" } } });
    const thread = await server.client.threads.create({ graphId: "dynamic" });
    expect(await server.client.runs.wait(thread.thread_id, assistant.assistant_id, { input: { log: ["input"] } })).toEqual({
      log: ["input", "custom"],
    });
    await server.client.threads.updateState(thread.thread_id, { values: { log: ["update"] }, asNode: "custom" });
    const state = await server.client.threads.getState(thread.thread_id);
    expect(state.values).toEqual({ log: ["input", "custom", "update"] });
    // The node the default build has is not part of this thread's graph.
    await expect(server.client.threads.updateState(thread.thread_id, { values: { log: ["x"] }, asNode: "default" })).rejects.toThrow(
      /HTTP 422.*does not exist/,
    );
  });
});

describe("subgraph tasks in thread state", () => {
  it("name the subgraph's namespace with the keys LangGraph gives, and carry the task path", async () => {
    const thread = await server.client.threads.create();
    await server.client.runs.wait(thread.thread_id, "nested", { input: { answer: "" } });
    const state = await server.client.threads.getState(thread.thread_id);
    expect(state.next).toEqual(["child"]);
    expect(state.tasks).toEqual([
      {
        id: expect.any(String),
        name: "child",
        error: null,
        interrupts: [{ id: expect.any(String), value: "approve?" }],
        checkpoint: { thread_id: thread.thread_id, checkpoint_ns: expect.stringMatching(/^child:/) },
        state: null,
        result: null,
        path: ["__pregel_pull", "child"],
      },
    ]);
    // With subgraphs, the task carries the subgraph's state instead (which has its own checkpoint).
    const recursive = await server.client.threads.getState(thread.thread_id, undefined, { subgraphs: true });
    const [task] = recursive.tasks;
    expect(task).toMatchObject({ name: "child", checkpoint: null, path: ["__pregel_pull", "child"] });
    expect(Object.keys(task!.state!).sort()).toEqual(
      ["checkpoint", "created_at", "metadata", "next", "parent_checkpoint", "tasks", "values"],
    );
    expect(task!.state!.checkpoint.checkpoint_ns).toMatch(/^child:/);
    expect(task!.state!.next).toEqual(["ask"]);
  });
});

describe("schemas of graphs typed with TypeScript only", () => {
  it("are computed at start-up, before anyone asks: one compilation, then served from the cache", async () => {
    // Logged by the warm-up alone (prepareSchemas, started by startHangar), never by a request.
    await vi.waitFor(() => expect(logLines.map((line) => line.msg)).toContain("graph schemas ready"), { timeout: 200_000, interval: 100 });
    // Compiled, or read from the schema cache a previous start on these unchanged files left.
    const compilations = () =>
      logLines.filter((line) => line.msg === "derived graph schemas from TypeScript types" || line.msg === "read graph schemas from TypeScript types from the cache");
    expect(compilations()).toHaveLength(1);
    expect(compilations()[0]).toMatchObject({ graphIds: expect.arrayContaining(["typed", "nested"]), ms: expect.any(Number) });
    const first = await server.client.assistants.getSchemas("typed");
    expect(await server.client.assistants.getSchemas("typed")).toEqual(first);
    await server.client.assistants.getSubgraphs("nested");
    expect(compilations()).toHaveLength(1);
  }, 240_000);

  it("are derived from the types: state, input, output, and the context as config and context", async () => {
    const schemas = await server.client.assistants.getSchemas("typed");
    expect(schemas.state_schema).toMatchObject({
      type: "object",
      $schema: "http://json-schema.org/draft-07/schema#",
      properties: {
        // A message channel (LangGraph's reducer) is described as the messages LangGraph takes.
        messages: { type: "array", langgraph_type: "messages", items: { anyOf: expect.any(Array) } },
        status: { type: "string", enum: ["draft", "final"] },
        score: { type: ["null", "number"] },
      },
    });
    // LangChain's message classes (~100 KB of definitions no JSON value satisfies) are gone.
    expect(JSON.stringify(schemas)).not.toContain("BaseMessage");
    // No server paths leak into type names.
    expect(JSON.stringify(schemas)).not.toContain("import(");
    expect(schemas.input_schema).toMatchObject({ type: "object", properties: { status: { enum: ["draft", "final"] } } });
    expect(schemas.output_schema).toMatchObject({ type: "object", properties: { score: expect.any(Object) } });
    const context = { type: "object", properties: { model: { type: "string", enum: ["large", "small"] } } };
    expect(schemas.context_schema).toMatchObject(context);
    expect(schemas.config_schema).toMatchObject(context);
  }, 120_000);

  it("subgraphs answer each namespace in both the SDK's and LangGraph's JS server's key forms", async () => {
    const subgraphs = (await server.client.assistants.getSubgraphs("nested")) as unknown as Record<string, Record<string, unknown>>;
    expect(Object.keys(subgraphs)).toEqual(["child"]);
    const child = subgraphs.child!;
    expect(child.state).toEqual(child.state_schema);
    expect(child.input).toEqual(child.input_schema);
    expect(child.output).toEqual(child.output_schema);
    expect(child.config).toEqual(child.config_schema);
    // Annotation-typed subgraphs get their schemas from the types too.
    expect(child.state_schema).toMatchObject({ type: "object", properties: { answer: { type: "string" } } });
  }, 120_000);
});
