import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { CreateThreadDocument, GetThreadStateDocument, UpdateThreadStateDocument } from "./generated/graphql.js";
import { errorCode, executeOk, executeOperation } from "./helpers.js";

const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

async function createThread(metadata: Record<string, unknown>): Promise<string> {
  const { createThread } = await executeOk(server, CreateThreadDocument, { input: { metadata } });
  return createThread.thread.threadId;
}

describe("Thread.state, Thread.history and updateThreadState", () => {
  it("starts empty, then shows each update as a checkpoint, newest first", async () => {
    const threadId = await createThread({ graph_id: "agent" });
    const fresh = await executeOk(server, GetThreadStateDocument, { threadId });
    expect(fresh.thread.state).toEqual({
      values: {},
      next: [],
      checkpointId: null,
      parentCheckpointId: null,
      metadata: null,
      createdAt: null,
      interrupts: [],
      tasks: [],
    });
    expect(fresh.thread.history).toEqual([]);

    const first = await executeOk(server, UpdateThreadStateDocument, {
      input: { threadId, values: { messages: [{ role: "user", content: "hi" }] }, asNode: "agent" },
    });
    const { checkpointId, thread } = first.updateThreadState;
    expect(thread).toMatchObject({ threadId, status: "IDLE", interrupts: {} });
    expect(thread.values).toMatchObject({ messages: [{ type: "human", content: "hi" }] });
    expect(thread.state).toMatchObject({ checkpointId, parentCheckpointId: null, next: [], tasks: [] });
    expect(thread.state?.metadata).toMatchObject({ source: "update", graph_id: "agent" });
    expect(thread.state?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    const second = await executeOk(server, UpdateThreadStateDocument, {
      input: { threadId, values: { messages: [{ type: "ai", content: "hello" }] }, asNode: "agent" },
    });
    const latestId = second.updateThreadState.checkpointId;
    expect(second.updateThreadState.thread.state).toMatchObject({ checkpointId: latestId, parentCheckpointId: checkpointId });

    const read = await executeOk(server, GetThreadStateDocument, { threadId });
    expect(read.thread.values).toMatchObject({ messages: [{ type: "human" }, { type: "ai", content: "hello" }] });
    expect(read.thread.history.map((state) => state.checkpointId)).toEqual([latestId, checkpointId]);
    expect(read.thread.history[0]).toEqual(read.thread.state);

    const limited = await executeOk(server, GetThreadStateDocument, { threadId, historyLimit: 1 });
    expect(limited.thread.history.map((state) => state.checkpointId)).toEqual([latestId]);
    const older = await executeOk(server, GetThreadStateDocument, { threadId, before: latestId });
    expect(older.thread.history.map((state) => state.checkpointId)).toEqual([checkpointId]);
  });

  it("forks from an earlier checkpoint", async () => {
    const threadId = await createThread({ graph_id: "agent" });
    const base = await executeOk(server, UpdateThreadStateDocument, {
      input: { threadId, values: { messages: [{ role: "user", content: "one" }] }, asNode: "agent" },
    });
    await executeOk(server, UpdateThreadStateDocument, {
      input: { threadId, values: { messages: [{ role: "user", content: "two" }] }, asNode: "agent" },
    });
    const fork = await executeOk(server, UpdateThreadStateDocument, {
      input: {
        threadId,
        values: { messages: [{ role: "user", content: "three" }] },
        asNode: "agent",
        checkpointId: base.updateThreadState.checkpointId,
      },
    });
    const messages = (fork.updateThreadState.thread.values as { messages: { content: string }[] }).messages;
    expect(messages.map((message) => message.content)).toEqual(["one", "three"]);
  });

  it("classifies failures: no graph_id or bad update → INVALID_INPUT, unknown thread → NOT_FOUND", async () => {
    const plain = await createThread({});
    const noGraph = await executeOperation(server, UpdateThreadStateDocument, { input: { threadId: plain, values: {} } });
    expect(errorCode(noGraph)).toBe("INVALID_INPUT");
    expect(noGraph.errors?.[0]?.message).toMatch(/graph_id/);

    const withGraph = await createThread({ graph_id: "agent" });
    const badNode = await executeOperation(server, UpdateThreadStateDocument, {
      input: { threadId: withGraph, values: { messages: [] }, asNode: "ghost" },
    });
    expect(errorCode(badNode)).toBe("INVALID_INPUT");

    const unknown = await executeOperation(server, UpdateThreadStateDocument, { input: { threadId: UNKNOWN_ID, values: {} } });
    expect(errorCode(unknown)).toBe("NOT_FOUND");

    const badLimit = await executeOperation(server, GetThreadStateDocument, { threadId: withGraph, historyLimit: 0 });
    expect(errorCode(badLimit)).toBe("INVALID_INPUT");
  });
});
