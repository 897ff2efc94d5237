import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { ContinueThreadDocument } from "./generated/graphql.js";
import { errorCode, executeOk, executeOperation } from "./helpers.js";

/** continueThread: edit the state at a checkpoint and/or run from it (fork and replay). */

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures");
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ configPath: path.join(fixtures, "studio.langgraph.json") });
});

afterAll(async () => {
  await server?.close();
});

type Counter = { total: number; step: number; log: string[] };

/** A thread that ran `counter` once from total 1: add (2) then double (4). Its checkpoints, oldest first. */
async function counterThread() {
  const { thread_id: threadId } = await server.client.threads.create();
  await server.client.runs.wait(threadId, "counter", { input: { total: 1, step: 1 } });
  const history = (await server.client.threads.getHistory<Counter>(threadId, { limit: 10 })).reverse();
  return { threadId, history };
}

async function settled(threadId: string, runId: string): Promise<Counter> {
  await server.client.runs.join(threadId, runId);
  return (await server.client.threads.getState<Counter>(threadId)).values;
}

describe("continueThread", () => {
  it("edits the state at a checkpoint as a node and continues from the edit", async () => {
    const { threadId, history } = await counterThread();
    const afterAdd = history.find((state) => state.metadata?.step === 1)!;
    expect(afterAdd.values).toEqual({ total: 2, step: 1, log: ["add 1"] });

    const { continueThread } = await executeOk(server, ContinueThreadDocument, {
      input: { threadId, assistantId: "counter", checkpointId: afterAdd.checkpoint.checkpoint_id, values: { total: 10 }, asNode: "add" },
    });
    expect(continueThread.editCheckpointId).toEqual(expect.any(String));
    expect(continueThread.checkpointId).toBe(continueThread.editCheckpointId);
    expect(continueThread.run.threadId).toBe(threadId);
    expect(await settled(threadId, continueThread.run.runId)).toEqual({ total: 20, step: 1, log: ["add 1", "double"] });

    // The edit forked off the checkpoint after `add`; the first branch is still in the history.
    const after = await server.client.threads.getHistory<Counter>(threadId, { limit: 20 });
    const edit = after.find((state) => state.checkpoint.checkpoint_id === continueThread.editCheckpointId)!;
    expect(edit.parent_checkpoint?.checkpoint_id).toBe(afterAdd.checkpoint.checkpoint_id);
    expect(after.filter((state) => state.parent_checkpoint?.checkpoint_id === afterAdd.checkpoint.checkpoint_id)).toHaveLength(2);
  });

  it("replays from an earlier checkpoint without an edit: a second branch", async () => {
    const { threadId, history } = await counterThread();
    const start = history.find((state) => state.metadata?.step === 0)!;
    await server.client.threads.updateState(threadId, { values: { total: 100 }, asNode: "double" });
    expect((await server.client.threads.getState<Counter>(threadId)).values.total).toBe(100);

    const { continueThread } = await executeOk(server, ContinueThreadDocument, {
      input: { threadId, assistantId: "counter", checkpointId: start.checkpoint.checkpoint_id },
    });
    expect(continueThread.editCheckpointId).toBeNull();
    expect(continueThread.checkpointId).toBe(start.checkpoint.checkpoint_id);
    expect(await settled(threadId, continueThread.run.runId)).toEqual({ total: 4, step: 1, log: ["add 1", "double"] });
  });

  it("refuses an unknown assistant before writing anything, and an update the graph refuses", async () => {
    const { threadId, history } = await counterThread();
    const latest = history.at(-1)!;
    const unknown = await executeOperation(server, ContinueThreadDocument, {
      input: { threadId, assistantId: "no-such-graph", values: { total: 0 }, asNode: "add" },
    });
    expect(errorCode(unknown)).toBe("NOT_FOUND");
    const now = await server.client.threads.getState<Counter>(threadId);
    expect(now.checkpoint.checkpoint_id).toBe(latest.checkpoint.checkpoint_id);

    const badNode = await executeOperation(server, ContinueThreadDocument, {
      input: { threadId, assistantId: "counter", values: { total: 0 }, asNode: "no_such_node" },
    });
    expect(errorCode(badNode)).toBe("INVALID_INPUT");
    expect(badNode.errors?.[0]?.message).toMatch(/no_such_node/);
  });

  it("refuses a checkpoint that is not on the thread (unknown, or another thread's) and writes nothing", async () => {
    const { threadId, history } = await counterThread();
    const other = await counterThread();
    const latest = history.at(-1)!;
    const runsBefore = await server.client.runs.list(threadId);
    for (const checkpointId of ["1f0c0c0c-0000-6000-8000-000000000000", other.history.at(-1)!.checkpoint.checkpoint_id!]) {
      for (const edit of [{}, { values: { total: 0 }, asNode: "add" }]) {
        const refused = await executeOperation(server, ContinueThreadDocument, { input: { threadId, assistantId: "counter", checkpointId, ...edit } });
        expect(errorCode(refused)).toBe("NOT_FOUND");
        expect(refused.errors?.[0]?.message).toContain(checkpointId);
      }
    }
    expect((await server.client.threads.getState<Counter>(threadId)).checkpoint.checkpoint_id).toBe(latest.checkpoint.checkpoint_id);
    expect(await server.client.threads.getHistory(threadId, { limit: 20 })).toHaveLength(history.length);
    expect(await server.client.runs.list(threadId)).toEqual(runsBefore);
  });
});
