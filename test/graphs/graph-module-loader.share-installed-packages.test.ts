import path from "node:path";
import { AIMessage } from "@langchain/core/messages";
import { StateGraph } from "@langchain/langgraph";
import { version as graphqlVersion } from "graphql";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { createGraphModuleLoader } from "../../src/graphs/graph-module-loader.js";

const FIXTURES = path.resolve("test/graphs/fixtures/shared-packages");
const GRAPH = path.join(FIXTURES, "graph.ts");
// Only where the loader resolves from (and looks for a tsconfig.json); never read.
const CONFIG = path.join(FIXTURES, "langgraph.json");

describe("createGraphModuleLoader", () => {
  it("gives deployment modules the server's own instance of the installed packages they import", async () => {
    const deployment = await createGraphModuleLoader(CONFIG).importModule(GRAPH);
    // The same class objects, not equal copies: one evaluation of each package per process.
    expect(deployment.StateGraph).toBe(StateGraph);
    expect(deployment.AIMessage).toBe(AIMessage);
    expect(deployment.z).toBe(z);
    expect(new (deployment.AIMessage as typeof AIMessage)("hi")).toBeInstanceOf(AIMessage);
  });

  it("keeps the deployment's own files in its namespace, resolved by tsx", async () => {
    const first = createGraphModuleLoader(CONFIG);
    const second = createGraphModuleLoader(CONFIG);
    const [a, again, b] = await Promise.all([first.importModule(GRAPH), first.importModule(GRAPH), second.importModule(GRAPH)]);
    // Extensionless imports, of its own file and of a file inside a package: Node alone cannot
    // resolve them, tsx does (the package file then stays in the namespace).
    expect(a.greeting).toBe("hello from the deployment");
    expect(a.graphqlVersion).toBe(graphqlVersion);
    expect(again.loadedAt).toBe(a.loadedAt);
    expect(b.loadedAt).not.toBe(a.loadedAt);
    expect(b.StateGraph).toBe(a.StateGraph);
  });

  it("resolves a package for importFrom as the deployment module would, the shared instance included", async () => {
    const loader = createGraphModuleLoader(CONFIG);
    const langgraph = await loader.importFrom("@langchain/langgraph", GRAPH);
    expect(langgraph.StateGraph).toBe(StateGraph);
  });
});
