import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { GetThreadStepsDocument } from "./generated/graphql.js";
import { errorCode, executeOk, executeOperation } from "./helpers.js";

/**
 * Thread.history(checkpointNs): a subgraph's own checkpoints, what the console's step view opens
 * inside a subgraph node. `pipeline` (test/fixtures/graphs/studio.ts) runs plan → research
 * (a subgraph: search → summarize) → write.
 */

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures");
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ configPath: path.join(fixtures, "debugger.langgraph.json") });
});

afterAll(async () => {
  await server?.close();
});

describe("Thread.history(checkpointNs)", () => {
  it("reads a subgraph's steps through the namespace its parent's task names; each task's result is what its node wrote", async () => {
    const { thread_id: threadId } = await server.client.threads.create();
    await server.client.runs.wait(threadId, "pipeline", { input: { topic: "graphs" }, context: { step_ms: 1 } });
    const root = await executeOk(server, GetThreadStepsDocument, { threadId, limit: 20 });
    const tasks = root.thread.history.flatMap((state) => state.tasks);
    const research = tasks.find((task) => task.name === "research");
    expect(research?.checkpointNs).toMatch(/^research:/);
    expect(tasks.find((task) => task.name === "plan")?.result).toEqual({ notes: ["plan done"] });

    const inner = await executeOk(server, GetThreadStepsDocument, { threadId, limit: 20, checkpointNs: research!.checkpointNs });
    const innerTasks = inner.thread.history.flatMap((state) => state.tasks).reverse();
    expect(innerTasks.map((task) => task.name).filter((name) => name !== "__start__")).toEqual(["search", "summarize"]);
    expect(innerTasks.find((task) => task.name === "summarize")?.result).toEqual({ notes: ["plan done", "search done", "summarize done"] });
    // The root history is not the subgraph's.
    expect(inner.thread.history.map((state) => state.checkpointId)).not.toContain(root.thread.history[0]?.checkpointId);
  });

  it("answers an empty history for a namespace without checkpoints, and INVALID_INPUT for a bad limit", async () => {
    const { thread_id: threadId } = await server.client.threads.create();
    await server.client.runs.wait(threadId, "counter", { input: { total: 1 } });
    const nowhere = await executeOk(server, GetThreadStepsDocument, { threadId, checkpointNs: "nowhere:1" });
    expect(nowhere.thread.history).toEqual([]);
    const badLimit = await executeOperation(server, GetThreadStepsDocument, { threadId, limit: 0, checkpointNs: "nowhere:1" });
    expect(errorCode(badLimit)).toBe("INVALID_INPUT");
  });
});
