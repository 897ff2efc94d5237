import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Command, Send, StateGraph } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toGraphCommand } from "../../src/graphs/graph-library.js";
import { loadGraphRegistry, type GraphRegistry } from "../../src/graphs/graph-registry.js";
import { createRecordingLog } from "./registry-test-helpers.js";

const OUR_NODE_MODULES = path.resolve("node_modules");

// A deployment with its own node_modules: a real COPY of @langchain/langgraph (so its classes and
// its schema meta registry are distinct from ours) and symlinks for everything else it imports.
const FOREIGN_GRAPH = `
import { END, MessagesZodState, START, StateGraph } from "@langchain/langgraph";
import { AIMessage } from "@langchain/core/messages";
import { z } from "zod";

const Context = z.object({ suffix: z.string().default("!") });
const resolvedFrom: string = import.meta.resolve("@langchain/langgraph");

export const graph = new StateGraph(MessagesZodState, Context)
  .addNode("reply", (state: { messages: unknown[] }, config: { context?: { suffix?: string } }) => ({
    messages: [new AIMessage({ content: resolvedFrom + (config.context?.suffix ?? "") })],
  }))
  .addEdge(START, "reply")
  .addEdge("reply", END)
  .compile();
`;

function createForeignDeployment(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "hangar-foreign-"));
  const modules = path.join(root, "node_modules");
  mkdirSync(path.join(modules, "@langchain"), { recursive: true });
  for (const entry of readdirSync(OUR_NODE_MODULES)) {
    if (entry.startsWith(".") || entry === "@langchain") continue;
    symlinkSync(path.join(OUR_NODE_MODULES, entry), path.join(modules, entry));
  }
  for (const entry of readdirSync(path.join(OUR_NODE_MODULES, "@langchain"))) {
    const source = path.join(OUR_NODE_MODULES, "@langchain", entry);
    const target = path.join(modules, "@langchain", entry);
    if (entry === "langgraph") {
      // Source maps and type declarations are not needed at run time; skipping them halves the copy.
      cpSync(source, target, { recursive: true, filter: (file) => !/\.(map|d\.ts|d\.cts)$/.test(file) });
    } else {
      symlinkSync(source, target);
    }
  }
  // Like a real ESM project; without it Node (and tsx) would treat graph.ts as CommonJS.
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "foreign-deployment", type: "module" }));
  writeFileSync(path.join(root, "graph.ts"), FOREIGN_GRAPH);
  writeFileSync(path.join(root, "langgraph.json"), JSON.stringify({ graphs: { foreign: "./graph.ts:graph" } }));
  return root;
}

describe("a deployment that resolves its own copy of @langchain/langgraph", () => {
  let root: string;
  let registry: GraphRegistry;

  beforeAll(async () => {
    root = createForeignDeployment();
    ({ registry } = await loadGraphRegistry(path.join(root, "langgraph.json"), createRecordingLog()));
  }, 60_000);
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("really uses the copy (the test would prove nothing otherwise)", async () => {
    expect(lstatSync(path.join(root, "node_modules/@langchain/langgraph")).isSymbolicLink()).toBe(false);
    const graph = await registry.resolve("foreign");
    const builder = graph.builder as object;
    expect(builder.constructor.name).toBe("StateGraph");
    expect(builder.constructor).not.toBe(StateGraph);
    expect(builder).not.toBeInstanceOf(StateGraph);
  });

  it("resolves a graph that runs, with context", async () => {
    const graph = await registry.resolve("foreign");
    const result = (await graph.invoke(
      { messages: [{ role: "user", content: "hi" }] },
      { context: { suffix: "?" } },
    )) as { messages: Array<{ content: unknown }> };
    const copyUrl = pathToFileURL(path.join(root, "node_modules/@langchain/langgraph")).href;
    expect(result.messages).toHaveLength(2);
    expect(String(result.messages[1].content)).toMatch(new RegExp(`^${copyUrl}/.*\\?$`));
  });

  it("builds commands from the copy: a Send in goto runs (LangGraph checks it with instanceof)", async () => {
    const library = registry.libraryOf("foreign");
    expect(library.Command).not.toBe(Command);
    expect(library.Send).not.toBe(Send);
    const graph = await registry.resolve("foreign");
    const command = toGraphCommand(library, { goto: [{ node: "reply", input: { messages: [] } }] });
    const result = (await graph.invoke(command, { context: { suffix: "." } })) as { messages: Array<{ content: unknown }> };
    expect(String(result.messages.at(-1)?.content)).toMatch(/\.$/);
    // Ours is refused by the copy, which is what the deployment would get without this.
    await expect(graph.invoke(new Command({ goto: [new Send("reply", { messages: [] })] }))).rejects.toThrow(/expected Send or string/);
  });

  it("serves schemas, including the copy's reducer metadata", async () => {
    const schemas = await registry.getSchemas("foreign");
    expect(schemas.context_schema).toMatchObject({ properties: { suffix: { type: "string", default: "!" } } });
    // `langgraph_type` lives in the copy's own meta registry; reading ours would lose it.
    expect(schemas.input_schema).toMatchObject({ properties: { messages: { langgraph_type: "messages" } } });
    const drawing = await registry.getDrawing("foreign");
    expect(drawing.nodes.map((node) => node.id)).toEqual(["__start__", "reply", "__end__"]);
  });
});
