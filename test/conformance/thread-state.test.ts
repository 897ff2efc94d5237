import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Checkpoint, ThreadState } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ThreadEntity } from "../../src/db/entities/thread.entity.js";
import { createServiceContext } from "../../src/runtime.js";
import { threadStateService } from "../../src/services/thread-state.service.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Its own deployment (steps + echo): adding graphs to the shared fixture would change the system
// assistants every other test file counts.
const here = path.dirname(fileURLToPath(import.meta.url));
const DEPLOYMENT = path.resolve(here, "../fixtures/graphs/thread-state.langgraph.json");
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type StepsValues = { messages: Array<Record<string, unknown>>; count: number };

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ configPath: DEPLOYMENT });
});

afterAll(async () => {
  await server?.close();
});

function post(pathname: string, body: unknown, method = "POST") {
  return server.request(pathname, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

const EMPTY_STATE = {
  values: {},
  next: [],
  tasks: [],
  checkpoint: null,
  metadata: null,
  created_at: null,
  parent_checkpoint: null,
  interrupts: [],
};

describe("thread state: empty threads", () => {
  it("a thread without a graph, or with one but no checkpoint, has the empty state and no history", async () => {
    const plain = await server.client.threads.create();
    const withGraph = await server.client.threads.create({ graphId: "steps" });
    for (const thread of [plain, withGraph]) {
      expect(await server.client.threads.getState(thread.thread_id)).toEqual(EMPTY_STATE);
      expect(await server.client.threads.getHistory(thread.thread_id)).toEqual([]);
    }
  });
});

describe("thread state: update, read, history, patch", () => {
  let threadId: string;
  let first: Checkpoint;
  let second: Checkpoint;

  beforeAll(async () => {
    threadId = (await server.client.threads.create({ graphId: "steps" })).thread_id;
    const one = await server.client.threads.updateState(threadId, {
      values: { messages: [{ role: "user", content: "hello" }], count: 2 },
      asNode: "second",
    });
    first = (one as unknown as { checkpoint: Checkpoint }).checkpoint;
    const two = await server.client.threads.updateState(threadId, {
      values: { messages: [{ type: "ai", content: "hi back" }] },
      asNode: "first",
    });
    second = (two as unknown as { checkpoint: Checkpoint }).checkpoint;
  });

  it("answers updateState with the new checkpoint", () => {
    expect(first).toEqual({ thread_id: threadId, checkpoint_ns: "", checkpoint_id: expect.any(String), checkpoint_map: null });
    expect(second.checkpoint_id).not.toBe(first.checkpoint_id);
  });

  it("shows the latest state with messages as wire dicts and what runs next", async () => {
    const state = await server.client.threads.getState<StepsValues>(threadId);
    expect(state.values.count).toBe(2);
    expect(state.values.messages).toMatchObject([
      { type: "human", content: "hello" },
      { type: "ai", content: "hi back" },
    ]);
    expect(state.values.messages[0]).not.toHaveProperty("lc");
    expect(state.next).toEqual(["second"]);
    expect(state.tasks).toMatchObject([{ name: "second", error: null, interrupts: [], checkpoint: null, state: null }]);
    expect(state.checkpoint).toEqual(second);
    expect(state.parent_checkpoint).toEqual(first);
    expect(state.created_at).toMatch(ISO_TIMESTAMP);
    expect(state.metadata).toMatchObject({ source: "update", graph_id: "steps", thread_id: threadId });
    expect((state as unknown as { interrupts: unknown[] }).interrupts).toEqual([]);
  });

  it("refreshes the thread's values and status (nodes left to run → interrupted)", async () => {
    const thread = await server.client.threads.get<StepsValues>(threadId);
    expect(thread.status).toBe("interrupted");
    expect(thread.interrupts).toEqual({});
    expect(thread.values.messages.map((message) => message.type)).toEqual(["human", "ai"]);
    expect(Date.parse(thread.state_updated_at)).toBeGreaterThanOrEqual(Date.parse(thread.created_at));
  });

  it("reads the state at a checkpoint by id (GET) and by checkpoint object (POST)", async () => {
    const byId = await server.client.threads.getState<StepsValues>(threadId, first.checkpoint_id!);
    expect(byId.checkpoint).toEqual(first);
    expect(byId.values.messages).toHaveLength(1);
    expect(byId.next).toEqual([]);
    expect(byId.parent_checkpoint).toBeNull();
    const byObject = await server.client.threads.getState<StepsValues>(threadId, first);
    expect(byObject).toEqual(byId);
  });

  it("lists history newest first, with limit, before and metadata filters", async () => {
    const { threads } = server.client;
    const all = await threads.getHistory(threadId);
    expect(all.map((state) => state.checkpoint.checkpoint_id)).toEqual([second.checkpoint_id, first.checkpoint_id]);
    expect(all[0]).toEqual(await threads.getState(threadId));
    const latest = await threads.getHistory(threadId, { limit: 1 });
    expect(latest.map((state) => state.checkpoint.checkpoint_id)).toEqual([second.checkpoint_id]);
    const older = await threads.getHistory(threadId, { before: { configurable: { checkpoint_id: second.checkpoint_id } } });
    expect(older.map((state) => state.checkpoint.checkpoint_id)).toEqual([first.checkpoint_id]);
    expect(await threads.getHistory(threadId, { metadata: { source: "loop" } })).toEqual([]);
    const beforeAsString = await post(`/threads/${threadId}/history`, { before: second.checkpoint_id });
    expect(((await beforeAsString.json()) as ThreadState[]).map((state) => state.checkpoint.checkpoint_id)).toEqual([
      first.checkpoint_id,
    ]);
  });

  it("patches the latest checkpoint's metadata (merge)", async () => {
    await server.client.threads.patchState(threadId, { reviewed: true });
    const state = await server.client.threads.getState(threadId);
    expect(state.metadata).toMatchObject({ reviewed: true, source: "update" });
    expect(state.checkpoint).toEqual(second);
    expect((await server.client.threads.getHistory(threadId, { metadata: { reviewed: true } })).length).toBe(1);
  });

  // The fork writes `messages` again, as the later checkpoint did: the two branches' values must
  // stay apart in the checkpointer (channel versions unique per write, not per step).
  it("forks from an earlier checkpoint with checkpoint_id", async () => {
    const fork = await server.client.threads.updateState(threadId, {
      values: { messages: [{ role: "user", content: "again" }], count: 10 },
      asNode: "second",
      checkpointId: first.checkpoint_id!,
    });
    const forkCheckpoint = (fork as unknown as { checkpoint: Checkpoint }).checkpoint;
    const state = await server.client.threads.getState<StepsValues>(threadId);
    expect(state.checkpoint).toEqual(forkCheckpoint);
    expect(state.parent_checkpoint).toEqual(first);
    expect(state.values.count).toBe(12);
    expect(state.values.messages.map((message) => message.content)).toEqual(["hello", "again"]);
    const thread = await server.client.threads.get<StepsValues>(threadId);
    expect(thread).toMatchObject({ status: "idle", values: { count: 12 } });
  });
});

describe("thread state: supersteps on create", () => {
  it("seeds a new thread, one checkpoint per superstep, commands included", async () => {
    const thread = await server.client.threads.create({
      graphId: "steps",
      supersteps: [
        { updates: [{ values: { messages: [{ role: "user", content: "seed" }] }, asNode: "first" }] },
        { updates: [{ values: { messages: [{ type: "ai", content: "seeded" }], count: 1 }, asNode: "second" }] },
        { updates: [{ values: null, command: { update: { count: 4 } }, asNode: "second" }] },
      ],
    });
    expect(thread.status).toBe("idle");
    expect(thread.metadata).toEqual({ graph_id: "steps" });
    const values = thread.values as StepsValues;
    expect(values.messages).toMatchObject([
      { type: "human", content: "seed" },
      { type: "ai", content: "seeded" },
    ]);
    expect(values.count).toBe(5);
    expect(await server.client.threads.get(thread.thread_id)).toEqual(thread);
    expect(await server.client.threads.getHistory(thread.thread_id)).toHaveLength(3);
  });

  it("refuses supersteps without a graph, or with an unknown node, and keeps no thread", async () => {
    const threadId = "3a3b3c3d-0000-4000-8000-00000000abcd";
    const update = { values: { count: 1 }, asNode: "first" };
    await expect(
      server.client.threads.create({ threadId, supersteps: [{ updates: [update] }] }),
    ).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/graph_id/) });
    await expect(
      server.client.threads.create({ threadId, graphId: "nope", supersteps: [{ updates: [update] }] }),
    ).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/nope/) });
    await expect(
      server.client.threads.create({ threadId, graphId: "steps", supersteps: [{ updates: [{ ...update, asNode: "ghost" }] }] }),
    ).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/ghost/) });
    await expect(server.client.threads.get(threadId)).rejects.toMatchObject({ status: 404 });
  });
});

describe("thread state: runs' outcomes (syncThread, as the run engine calls it)", () => {
  it("an interrupt() leaves the thread interrupted with its interrupts by task; a failure sets error", async () => {
    const { runtime } = server.hangar;
    const ctx = createServiceContext(runtime, { kind: "anonymous" });
    const threadId = (await server.client.threads.create({ graphId: "steps" })).thread_id;
    const graph = await runtime.graphs.resolve("steps", { checkpointer: runtime.db.checkpointer, store: runtime.db.store });
    await graph.invoke({ messages: [{ role: "user", content: "go" }] }, { configurable: { thread_id: threadId } });
    await threadStateService.syncThread(ctx, threadId);

    const state = await server.client.threads.getState(threadId);
    expect(state.next).toEqual(["second"]);
    const [task] = state.tasks;
    expect(task).toMatchObject({ name: "second", interrupts: [{ id: expect.any(String), value: { question: "approve?" } }] });
    expect((state as unknown as { interrupts: unknown[] }).interrupts).toEqual(task.interrupts);
    const thread = await server.client.threads.get(threadId);
    expect(thread.status).toBe("interrupted");
    expect(thread.interrupts).toEqual({ [task.id]: task.interrupts });

    await threadStateService.syncThread(ctx, threadId, { failed: true, error: new Error("boom") });
    expect(await server.client.threads.get(threadId)).toMatchObject({
      status: "error",
      error: { error: "Error", message: "boom" },
    });
  });

  it("refuses to update the state of a busy thread (409)", async () => {
    const thread = await server.client.threads.create({ graphId: "steps" });
    await server.hangar.runtime.db.dataSource.manager.update(ThreadEntity, { threadId: thread.thread_id }, { status: "busy" });
    const response = await post(`/threads/${thread.thread_id}/state`, { values: { count: 1 }, as_node: "first" });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/busy/);
  });
});

describe("thread state: errors", () => {
  let threadId: string;
  let plainThreadId: string;

  beforeAll(async () => {
    threadId = (await server.client.threads.create({ graphId: "steps" })).thread_id;
    await server.client.threads.updateState(threadId, { values: { count: 1 }, asNode: "first" });
    plainThreadId = (await server.client.threads.create()).thread_id;
  });

  it("404 for an unknown thread on every state endpoint", async () => {
    const { threads } = server.client;
    for (const call of [
      () => threads.getState(UNKNOWN_ID),
      () => threads.getState(UNKNOWN_ID, UNKNOWN_ID),
      () => threads.getHistory(UNKNOWN_ID),
      () => threads.updateState(UNKNOWN_ID, { values: {} }),
      () => threads.patchState(UNKNOWN_ID, { a: 1 }),
      () => threads.getState("not-a-uuid"),
    ]) {
      await expect(call()).rejects.toMatchObject({ status: 404 });
    }
  });

  it("404 for an unknown checkpoint, by id and by checkpoint object; 404 patching a thread with no checkpoint", async () => {
    await expect(server.client.threads.getState(threadId, UNKNOWN_ID)).rejects.toMatchObject({ status: 404 });
    const response = await post(`/threads/${threadId}/state/checkpoint`, { checkpoint: { checkpoint_id: UNKNOWN_ID } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { detail: string }).detail).toContain(UNKNOWN_ID);
    await expect(server.client.threads.patchState(plainThreadId, { a: 1 })).rejects.toMatchObject({ status: 404 });
  });

  it("422 updating the state of a thread without graph_id, naming it", async () => {
    const response = await post(`/threads/${plainThreadId}/state`, { values: { count: 1 } });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/graph_id/);
  });

  it.each([
    ["update: values of the wrong type", "POST", "state", { values: "x" }, /values/],
    ["update: as_node not a string", "POST", "state", { values: {}, as_node: 5 }, /as_node/],
    ["update: unknown node", "POST", "state", { values: { count: 1 }, as_node: "ghost" }, /ghost/],
    ["update: checkpoint of the wrong type", "POST", "state", { values: {}, checkpoint: "x" }, /checkpoint/],
    ["checkpoint: missing checkpoint", "POST", "state/checkpoint", {}, /checkpoint/],
    ["patch: missing metadata", "PATCH", "state", {}, /metadata/],
    ["patch: metadata of the wrong type", "PATCH", "state", { metadata: [1] }, /metadata/],
    ["history: limit 0", "POST", "history", { limit: 0 }, /limit/],
    ["history: before of the wrong type", "POST", "history", { before: 5 }, /before/],
    ["history: metadata of the wrong type", "POST", "history", { metadata: "x" }, /metadata/],
  ])("422 for bad bodies: %s", async (_name, method, suffix, body, detail) => {
    const response = await post(`/threads/${threadId}/${suffix}`, body, method);
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toMatch(detail);
  });

  it("422 for a bad subgraphs flag", async () => {
    const response = await server.request(`/threads/${threadId}/state?subgraphs=maybe`);
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/subgraphs/);
  });
});
