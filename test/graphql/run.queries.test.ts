import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { assistantsService } from "../../src/services/assistants.service.js";
import { runsService } from "../../src/services/runs.service.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import {
  CreateRunDocument,
  CreateThreadDocument,
  GetRunDocument,
  GetRunEventsDocument,
  GetRunNodeDocument,
  GetThreadRunsDocument,
  ListThreadsWithRunsDocument,
} from "./generated/graphql.js";
import { errorCode, executeOk, executeOperation } from "./helpers.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });

async function createThread(metadata: Record<string, unknown> = {}): Promise<string> {
  const { createThread: created } = await executeOk(server, CreateThreadDocument, { input: { metadata } });
  return created.thread.threadId;
}

/** An `echo` run on the thread, finished before this resolves. */
async function runEcho(threadId: string, content: string): Promise<string> {
  const { createRun } = await executeOk(server, CreateRunDocument, {
    input: { threadId, assistantId: "echo", input: human(content), streamMode: ["VALUES", "UPDATES"] },
  });
  await server.client.runs.join(threadId, createRun.run.runId);
  return createRun.run.runId;
}

describe("run(runId)", () => {
  it("reads a finished run with its thread, assistant and stored events", async () => {
    const threadId = await createThread();
    const runId = await runEcho(threadId, "hello");

    const { run } = await executeOk(server, GetRunDocument, { runId: runId.toUpperCase() });
    expect(run).toMatchObject({
      runId,
      threadId,
      status: "SUCCESS",
      multitaskStrategy: "REJECT",
      attempt: 1,
      error: null,
      thread: { threadId, status: "IDLE" },
      assistant: { graphId: "echo" },
    });
    expect(run.kwargs).toMatchObject({ input: human("hello"), stream_mode: ["values", "updates"], command: null });

    const { run: withEvents } = await executeOk(server, GetRunEventsDocument, { runId });
    const events = withEvents.events;
    expect(events[0]).toMatchObject({ runId, threadId, seq: 1, event: "metadata", mode: "metadata", namespace: [] });
    expect(events[0]!.data).toEqual({ run_id: runId, attempt: 1 });
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    const update = events.find((event) => event.mode === "updates");
    expect(update).toMatchObject({ event: "updates", namespace: [] });
    expect(update!.data).toEqual({ echo: { messages: [{ role: "assistant", content: "echo: hello" }] } });
    expect(events.at(-1)).toMatchObject({ event: "values" });

    const page = await executeOk(server, GetRunEventsDocument, { runId, afterSeq: 1, first: 1 });
    expect(page.run.events.map((event) => event.seq)).toEqual([2]);
  });

  it("round-trips the run's global id through node(id)", async () => {
    const threadId = await createThread();
    const runId = await runEcho(threadId, "node");
    const { run } = await executeOk(server, GetRunDocument, { runId });
    const { node } = await executeOk(server, GetRunNodeDocument, { id: run.id });
    expect(node).toEqual({ __typename: "Run", id: run.id, runId, status: "SUCCESS" });
  });

  it("answers NOT_FOUND for an unknown or malformed run id, INVALID_INPUT for a bad page size", async () => {
    const unknown = await executeOperation(server, GetRunDocument, { runId: "00000000-0000-4000-8000-000000000000" });
    expect(errorCode(unknown)).toBe("NOT_FOUND");
    expect(errorCode(await executeOperation(server, GetRunDocument, { runId: "nope" }))).toBe("NOT_FOUND");

    const threadId = await createThread();
    const runId = await runEcho(threadId, "pages");
    expect(errorCode(await executeOperation(server, GetRunEventsDocument, { runId, first: 0 }))).toBe("INVALID_INPUT");
  });
});

describe("Thread.runs", () => {
  it("loads the runs of every listed thread with one batched service call, newest first", async () => {
    const tag = { suite: "thread-runs" };
    const [none, two, one] = [await createThread(tag), await createThread(tag), await createThread(tag)];
    const older = await runEcho(two!, "first");
    const newer = await runEcho(two!, "second");
    const only = await runEcho(one!, "only");

    const batched = vi.spyOn(runsService, "listNewestOfThreads");
    const perThread = vi.spyOn(runsService, "list");
    const assistants = vi.spyOn(assistantsService, "getMany");
    const { threads } = await executeOk(server, ListThreadsWithRunsDocument, { metadata: tag });

    expect(threads.edges.map((edge) => edge.node.threadId)).toEqual([none, two, one]);
    expect(threads.edges.map((edge) => edge.node.runs.totalCount)).toEqual([0, 2, 1]);
    expect(threads.edges[1]!.node.runs.edges.map((edge) => edge.node.runId)).toEqual([newer, older]);
    expect(threads.edges[2]!.node.runs.edges.map((edge) => edge.node)).toEqual([
      { runId: only, status: "SUCCESS", assistant: { graphId: "echo" } },
    ]);
    // N+1 would call a service once per thread (and once per run for its assistant).
    expect(batched).toHaveBeenCalledTimes(1);
    expect([...batched.mock.calls[0]![1]].sort()).toEqual([none, two, one].sort());
    expect(perThread).not.toHaveBeenCalled();
    expect(assistants).toHaveBeenCalledTimes(1);
  });

  it("pages with first/after, filters by status and counts the filtered total", async () => {
    const threadId = await createThread();
    const runIds = [await runEcho(threadId, "a"), await runEcho(threadId, "b"), await runEcho(threadId, "c")].reverse();

    const first = await executeOk(server, GetThreadRunsDocument, { threadId, first: 2 });
    expect(first.thread.runs.totalCount).toBe(3);
    expect(first.thread.runs.pageInfo.hasNextPage).toBe(true);
    const second = await executeOk(server, GetThreadRunsDocument, {
      threadId,
      first: 2,
      after: first.thread.runs.pageInfo.endCursor,
    });
    expect(second.thread.runs.pageInfo.hasNextPage).toBe(false);
    const seen = [...first.thread.runs.edges, ...second.thread.runs.edges].map((edge) => edge.node.runId);
    expect(seen).toEqual(runIds);

    const succeeded = await executeOk(server, GetThreadRunsDocument, { threadId, status: "SUCCESS" });
    expect(succeeded.thread.runs.totalCount).toBe(3);
    const failed = await executeOk(server, GetThreadRunsDocument, { threadId, status: "ERROR" });
    expect(failed.thread.runs).toMatchObject({ totalCount: 0, edges: [] });
  });
});
