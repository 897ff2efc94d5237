import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { assistantsService } from "../../src/services/assistants.service.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import {
  CopyThreadDocument,
  CreateAssistantDocument,
  CreateThreadDocument,
  DeleteAssistantDocument,
  DeleteThreadDocument,
  GetThreadDocument,
  ListThreadsDocument,
  UpdateThreadDocument,
  type ListThreadsQuery,
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

describe("thread mutations", () => {
  it("creates, merges metadata on update, copies and deletes", async () => {
    const { createThread } = await executeOk(server, CreateThreadDocument, { input: { metadata: { a: 1, b: 1 } } });
    const thread = createThread.thread;
    expect(thread).toMatchObject({ status: "IDLE", metadata: { a: 1, b: 1 }, config: {}, values: null, error: null });

    const { updateThread } = await executeOk(server, UpdateThreadDocument, {
      input: { threadId: thread.threadId, metadata: { b: 2, c: 3 } },
    });
    expect(updateThread.thread.metadata).toEqual({ a: 1, b: 2, c: 3 });

    const { copyThread } = await executeOk(server, CopyThreadDocument, { input: { threadId: thread.threadId } });
    expect(copyThread.thread.threadId).not.toBe(thread.threadId);
    expect(copyThread.thread.metadata).toEqual({ a: 1, b: 2, c: 3 });

    const { deleteThread } = await executeOk(server, DeleteThreadDocument, { input: { threadId: thread.threadId } });
    expect(deleteThread).toEqual({ deletedThreadId: thread.threadId, deletedId: thread.id });
    const gone = await executeOperation(server, GetThreadDocument, { threadId: thread.threadId });
    expect(errorCode(gone)).toBe("NOT_FOUND");
    // The copy is independent of the deleted original.
    expect((await executeOk(server, GetThreadDocument, { threadId: copyThread.thread.threadId })).thread).toBeTruthy();
  });

  it("honours a given thread id and ifExists", async () => {
    const threadId = "0b6f8f9e-3c55-4c2e-a1a7-8f0d3c0f7a11";
    await executeOk(server, CreateThreadDocument, { input: { threadId, metadata: { n: 1 } } });
    const existing = await executeOk(server, CreateThreadDocument, {
      input: { threadId, metadata: { n: 2 }, ifExists: "DO_NOTHING" },
    });
    expect(existing.createThread.thread.metadata).toEqual({ n: 1 });
    const duplicate = await executeOperation(server, CreateThreadDocument, { input: { threadId } });
    expect(errorCode(duplicate)).toBe("CONFLICT");
    const malformed = await executeOperation(server, CreateThreadDocument, { input: { threadId: "not-a-uuid" } });
    expect(errorCode(malformed)).toBe("INVALID_INPUT");
  });

  it("answers NOT_FOUND when updating or deleting an unknown thread, CONFLICT when copying one (as LangGraph's server)", async () => {
    const threadId = "00000000-0000-4000-8000-000000000001";
    for (const result of [
      await executeOperation(server, UpdateThreadDocument, { input: { threadId, metadata: { x: 1 } } }),
      await executeOperation(server, DeleteThreadDocument, { input: { threadId } }),
    ]) {
      expect(errorCode(result)).toBe("NOT_FOUND");
    }
    expect(errorCode(await executeOperation(server, CopyThreadDocument, { input: { threadId } }))).toBe("CONFLICT");
  });
});

describe("threads connection and Thread.assistant", () => {
  it("resolves each thread's assistant through one batched lookup", async () => {
    const assistants: Array<{ assistantId: string; name: string }> = [];
    for (const name of ["owner-1", "owner-2"]) {
      const { createAssistant } = await executeOk(server, CreateAssistantDocument, { input: { graphId: "echo", name } });
      assistants.push(createAssistant.assistant);
    }
    const suite = { suite: "owned" };
    const owners = [assistants[0], assistants[1], assistants[0]];
    const threadIds: string[] = [];
    for (const owner of owners) {
      const { createThread } = await executeOk(server, CreateThreadDocument, {
        input: { metadata: { ...suite, assistant_id: owner.assistantId } },
      });
      threadIds.push(createThread.thread.threadId);
    }
    await executeOk(server, CreateThreadDocument, { input: { metadata: { ...suite } } });

    const getMany = vi.spyOn(assistantsService, "getMany");
    const get = vi.spyOn(assistantsService, "get");
    const { threads } = await executeOk(server, ListThreadsDocument, { metadata: suite, sortOrder: "ASC" });

    expect(threads.totalCount).toBe(4);
    expect(threads.edges.map((edge) => edge.node.assistant?.name ?? null)).toEqual(["owner-1", "owner-2", "owner-1", null]);
    expect(getMany).toHaveBeenCalledTimes(1);
    expect([...getMany.mock.calls[0][1]].sort()).toEqual(assistants.map((a) => a.assistantId).sort());
    expect(get).not.toHaveBeenCalled();

    const single = await executeOk(server, GetThreadDocument, { threadId: threadIds[1] });
    expect(single.thread.assistant).toEqual({ assistantId: assistants[1].assistantId, name: "owner-2" });

    // Deleting the assistant with deleteThreads removes the threads that name it.
    await executeOk(server, DeleteAssistantDocument, {
      input: { assistantId: assistants[0].assistantId, deleteThreads: true },
    });
    const remaining = await executeOk(server, ListThreadsDocument, { metadata: suite });
    expect(remaining.threads.totalCount).toBe(2);
  });

  it("filters by ids and status and pages with first/after", async () => {
    const suite = { suite: "listed" };
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) {
      const { createThread } = await executeOk(server, CreateThreadDocument, { input: { metadata: { ...suite, index } } });
      ids.push(createThread.thread.threadId);
    }
    const byIds = await executeOk(server, ListThreadsDocument, { ids: [ids[0], ids[3].toUpperCase()] });
    expect(byIds.threads.edges.map((edge) => edge.node.threadId).sort()).toEqual([ids[0], ids[3]].sort());

    const idle = await executeOk(server, ListThreadsDocument, { metadata: suite, status: "IDLE" });
    expect(idle.threads.totalCount).toBe(5);
    const busy = await executeOk(server, ListThreadsDocument, { metadata: suite, status: "BUSY" });
    expect(busy.threads.totalCount).toBe(0);

    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page: ListThreadsQuery = await executeOk(server, ListThreadsDocument, {
        metadata: suite,
        first: 2,
        after,
        sortBy: "THREAD_ID",
      });
      seen.push(...page.threads.edges.map((edge) => edge.node.threadId));
      after = page.threads.pageInfo.hasNextPage ? page.threads.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toEqual([...ids].sort().reverse());
  });

  it("finds threads whose metadata contains any of metadataAnyOf's objects, and bounds the list", async () => {
    const suite = { suite: "any-of" };
    const created: Record<string, string> = {};
    for (const [name, ticket] of [["text", "4711"], ["number", 4711], ["other", 4712]] as const) {
      const { createThread } = await executeOk(server, CreateThreadDocument, { input: { metadata: { ...suite, ticket } } });
      created[name] = createThread.thread.threadId;
    }
    const found = await executeOk(server, ListThreadsDocument, { metadata: suite, metadataAnyOf: [{ ticket: "4711" }, { ticket: 4711 }] });
    expect(found.threads.totalCount).toBe(2);
    expect(found.threads.edges.map((edge) => edge.node.threadId).sort()).toEqual([created.text, created.number].sort());

    const refused = await executeOperation(server, ListThreadsDocument, { metadataAnyOf: [] });
    expect(errorCode(refused)).toBe("INVALID_INPUT");
    expect(refused.errors?.[0]?.message).toBe("metadataAnyOf must list 1 to 64 objects, got 0");
  });
});
