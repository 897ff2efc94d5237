import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { CancelRunDocument, CreateRunDocument, CreateThreadDocument, GetRunDocument } from "./generated/graphql.js";
import { errorCode, executeOk, executeOperation } from "./helpers.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

const human = (content: string) => ({ messages: [{ role: "user", content }] });

async function createThread(): Promise<string> {
  const { createThread: created } = await executeOk(server, CreateThreadDocument, { input: {} });
  return created.thread.threadId;
}

/** A `slow` run (three nodes of `stepMs` each) that has started executing. */
async function startSlowRun(threadId: string, stepMs: number): Promise<string> {
  const { createRun } = await executeOk(server, CreateRunDocument, {
    input: { threadId, assistantId: "slow", input: human("go"), context: { step_ms: stepMs } },
  });
  await expect.poll(async () => (await server.client.runs.get(threadId, createRun.run.runId)).status).toBe("running");
  return createRun.run.runId;
}

describe("createRun", () => {
  it("queues a run with REST's defaults and runs it", async () => {
    const threadId = await createThread();
    const { createRun } = await executeOk(server, CreateRunDocument, {
      input: { threadId, assistantId: "echo", input: human("hi"), metadata: { via: "graphql" } },
    });
    expect(createRun.run).toMatchObject({
      threadId,
      status: "PENDING",
      multitaskStrategy: "REJECT",
      metadata: { via: "graphql" },
      attempt: 0,
    });
    expect(createRun.run.kwargs).toMatchObject({
      input: human("hi"),
      command: null,
      stream_mode: ["values"],
      interrupt_before: null,
      webhook: null,
      on_completion: null,
    });
    expect(await server.client.runs.join(threadId, createRun.run.runId)).toEqual({
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "echo: hi" },
      ],
    });
  });

  it("maps command, node lists and stream modes; creates the thread when asked", async () => {
    const threadId = "6f1e7c57-1a86-4c6c-9f3e-4b7f2b0cdb11";
    const { createRun } = await executeOk(server, CreateRunDocument, {
      input: {
        threadId,
        ifNotExists: "CREATE",
        assistantId: "interrupting",
        input: human("may I?"),
        streamMode: ["UPDATES", "MESSAGES_TUPLE", "UPDATES"],
        interruptAfter: ["*"],
        afterSeconds: 0,
      },
    });
    expect(createRun.run.kwargs).toMatchObject({ stream_mode: ["updates", "messages-tuple"], interrupt_after: "*" });
    await server.client.runs.join(threadId, createRun.run.runId);
    expect((await server.client.threads.get(threadId)).status).toBe("interrupted");

    const { createRun: resumed } = await executeOk(server, CreateRunDocument, {
      input: { threadId, assistantId: "interrupting", command: { resume: "yes" } },
    });
    expect(resumed.run.kwargs).toMatchObject({ command: { resume: "yes" }, input: null });
    const values = await server.client.runs.join(threadId, resumed.run.runId);
    expect(values).toMatchObject({ messages: [{ content: "may I?" }, { content: "approved: yes" }] });
  });

  it("runs statelessly without a threadId, keeping the thread only when asked", async () => {
    const { createRun } = await executeOk(server, CreateRunDocument, {
      input: { assistantId: "echo", input: human("kept"), onCompletion: "KEEP" },
    });
    expect(createRun.run.kwargs).toMatchObject({ on_completion: "keep" });
    await server.client.runs.join(createRun.run.threadId, createRun.run.runId);
    const { run } = await executeOk(server, GetRunDocument, { runId: createRun.run.runId });
    expect(run).toMatchObject({ status: "SUCCESS", thread: { threadId: createRun.run.threadId } });
  });

  it("refuses a second run on a busy thread with THREAD_BUSY, and runs it under ENQUEUE", async () => {
    const threadId = await createThread();
    const busy = await startSlowRun(threadId, 400);
    const refused = await executeOperation(server, CreateRunDocument, { input: { threadId, assistantId: "echo", input: human("me too") } });
    expect(errorCode(refused)).toBe("THREAD_BUSY");
    expect(refused.errors?.[0]?.message).toContain(threadId);

    const { createRun: queued } = await executeOk(server, CreateRunDocument, {
      input: { threadId, assistantId: "echo", input: human("after you"), multitaskStrategy: "ENQUEUE" },
    });
    await server.client.runs.join(threadId, queued.run.runId);
    expect((await server.client.runs.get(threadId, busy)).status).toBe("success");
  });

  it("classifies bad requests: NOT_FOUND for unknown assistants and threads, INVALID_INPUT for bad fields", async () => {
    const threadId = await createThread();
    const cases = [
      [{ threadId, assistantId: "no-such-graph" }, "NOT_FOUND"],
      [{ threadId: "00000000-0000-4000-8000-000000000000", assistantId: "echo" }, "NOT_FOUND"],
      [{ threadId, assistantId: "echo", input: {}, command: { goto: [] } }, "INVALID_INPUT"],
      [{ threadId, assistantId: "echo", webhook: "ftp://example.com/hook" }, "INVALID_INPUT"],
      [{ threadId, assistantId: "echo", afterSeconds: -1 }, "INVALID_INPUT"],
    ] as const;
    for (const [input, code] of cases) {
      const result = await executeOperation(server, CreateRunDocument, { input });
      expect(errorCode(result), JSON.stringify(input)).toBe(code);
    }
    // A refused request changes nothing.
    expect(await server.client.runs.list(threadId)).toEqual([]);
  });
});

describe("cancelRun", () => {
  it("interrupts a running slow run and, with wait, answers once it has stopped", async () => {
    const threadId = await createThread();
    const runId = await startSlowRun(threadId, 2_000);
    const { cancelRun } = await executeOk(server, CancelRunDocument, { input: { runId, wait: true } });
    expect(cancelRun.run).toEqual({ runId, status: "INTERRUPTED" });
    expect((await server.client.threads.get(threadId)).status).not.toBe("busy");
  });

  it("stops a pending run at once; rollback deletes it", async () => {
    const threadId = await createThread();
    const later = { threadId, assistantId: "echo", afterSeconds: 3_600, multitaskStrategy: "ENQUEUE" } as const;
    const { createRun: first } = await executeOk(server, CreateRunDocument, { input: later });
    const { cancelRun } = await executeOk(server, CancelRunDocument, { input: { runId: first.run.runId } });
    expect(cancelRun.run).toEqual({ runId: first.run.runId, status: "INTERRUPTED" });

    const { createRun: second } = await executeOk(server, CreateRunDocument, { input: later });
    const rolledBack = await executeOk(server, CancelRunDocument, { input: { runId: second.run.runId, action: "ROLLBACK" } });
    expect(rolledBack.cancelRun.run).toBeNull();
    expect(errorCode(await executeOperation(server, GetRunDocument, { runId: second.run.runId }))).toBe("NOT_FOUND");
  });

  it("leaves a finished run as it is and answers NOT_FOUND for an unknown one", async () => {
    const threadId = await createThread();
    const { createRun } = await executeOk(server, CreateRunDocument, { input: { threadId, assistantId: "echo", input: human("done") } });
    await server.client.runs.join(threadId, createRun.run.runId);
    const { cancelRun } = await executeOk(server, CancelRunDocument, { input: { runId: createRun.run.runId } });
    expect(cancelRun.run).toEqual({ runId: createRun.run.runId, status: "SUCCESS" });

    const unknown = await executeOperation(server, CancelRunDocument, { input: { runId: "00000000-0000-4000-8000-000000000000" } });
    expect(errorCode(unknown)).toBe("NOT_FOUND");
  });
});
