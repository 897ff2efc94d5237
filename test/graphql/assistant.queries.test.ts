import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { assistantsService } from "../../src/services/assistants.service.js";
import { threadsService } from "../../src/services/threads.service.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import {
  CreateAssistantDocument,
  GetAssistantGraphDocument,
  ListAssistantsDocument,
  ListAssistantsWithThreadsDocument,
  ListAssistantsWithVersionsDocument,
  UpdateAssistantDocument,
  type ListAssistantsQuery,
  type ListAssistantsQueryVariables,
} from "./generated/graphql.js";
import { executeOk } from "./helpers.js";

let server: TestServer;
const paged: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  // Seven assistants sharing a metadata tag, created in one burst so some share a timestamp:
  // the order must still be stable (ties broken by id).
  for (let index = 0; index < 7; index++) {
    const { createAssistant } = await executeOk(server, CreateAssistantDocument, {
      input: {
        graphId: index % 2 === 0 ? "echo" : "agent",
        name: `paged-${index}`,
        metadata: { suite: "paging", parity: index % 2 === 0 ? "even" : "odd" },
        config: index === 3 ? { configurable: { tuned: true } } : {},
      },
    });
    paged.push(createAssistant.assistant.assistantId);
  }
});

afterAll(async () => {
  await server?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function listAll(variables: ListAssistantsQueryVariables, pageSize: number) {
  const seen: string[] = [];
  let after: string | null = null;
  for (let pages = 0; pages < 20; pages++) {
    const { assistants }: ListAssistantsQuery = await executeOk(server, ListAssistantsDocument, {
      ...variables,
      first: pageSize,
      after,
    });
    seen.push(...assistants.edges.map((edge) => edge.node.assistantId));
    if (!assistants.pageInfo.hasNextPage) return { seen, totalCount: assistants.totalCount };
    after = assistants.pageInfo.endCursor;
  }
  throw new Error("pagination did not terminate");
}

describe("assistants connection", () => {
  it("pages with first/after through every match exactly once, with totalCount", async () => {
    const suite = { suite: "paging" };
    const { seen, totalCount } = await listAll({ metadata: suite }, 3);
    expect(totalCount).toBe(7);
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(new Set(paged));

    // The same query again gives the same order (stable, not merely the same set).
    const again = await listAll({ metadata: suite }, 2);
    expect(again.seen).toEqual(seen);

    const first = await executeOk(server, ListAssistantsDocument, { metadata: suite, first: 3 });
    expect(first.assistants.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = await executeOk(server, ListAssistantsDocument, {
      metadata: suite,
      first: 3,
      after: first.assistants.pageInfo.endCursor,
    });
    expect(second.assistants.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
  });

  it("sorts by name in both directions", async () => {
    const asc = await listAll({ metadata: { suite: "paging" }, sortBy: "NAME", sortOrder: "ASC" }, 4);
    const names = (ids: string[]) => ids.map((id) => `paged-${paged.indexOf(id)}`);
    expect(names(asc.seen)).toEqual(["paged-0", "paged-1", "paged-2", "paged-3", "paged-4", "paged-5", "paged-6"]);
    const desc = await listAll({ metadata: { suite: "paging" }, sortBy: "NAME", sortOrder: "DESC" }, 4);
    expect(desc.seen).toEqual([...asc.seen].reverse());
  });

  it("pages backwards with last/before", async () => {
    const variables = { metadata: { suite: "paging" }, sortBy: "NAME", sortOrder: "ASC" } as const;
    const all = await executeOk(server, ListAssistantsDocument, { ...variables, first: 7 });
    const lastTwo = await executeOk(server, ListAssistantsDocument, { ...variables, last: 2 });
    expect(lastTwo.assistants.edges.map((edge) => edge.node.name)).toEqual(["paged-5", "paged-6"]);
    const beforeThose = await executeOk(server, ListAssistantsDocument, {
      ...variables,
      last: 2,
      before: lastTwo.assistants.pageInfo.startCursor,
    });
    expect(beforeThose.assistants.edges.map((edge) => edge.node.name)).toEqual(["paged-3", "paged-4"]);
    expect(all.assistants.edges.map((edge) => edge.node.name).slice(3, 5)).toEqual(["paged-3", "paged-4"]);
  });

  it("filters by graph, name, metadata and unconfigured", async () => {
    const suite = { suite: "paging" };
    const echo = await executeOk(server, ListAssistantsDocument, { metadata: suite, graphId: "echo", first: 50 });
    expect(echo.assistants.totalCount).toBe(4);
    expect(echo.assistants.edges.every((edge) => edge.node.graphId === "echo")).toBe(true);

    const named = await executeOk(server, ListAssistantsDocument, { name: "PAGED-6" });
    expect(named.assistants.edges.map((edge) => edge.node.name)).toEqual(["paged-6"]);

    const odd = await executeOk(server, ListAssistantsDocument, { metadata: { suite: "paging", parity: "odd" } });
    expect(odd.assistants.totalCount).toBe(3);

    const unconfigured = await executeOk(server, ListAssistantsDocument, { metadata: suite, unconfigured: true });
    expect(unconfigured.assistants.totalCount).toBe(6);
    expect(unconfigured.assistants.edges.map((edge) => edge.node.name)).not.toContain("paged-3");

    // The system assistants (one per deployed graph) are listed too.
    const system = await executeOk(server, ListAssistantsDocument, { metadata: { created_by: "system" } });
    expect(system.assistants.edges.map((edge) => edge.node.graphId).sort()).toEqual(["agent", "echo", "failing", "interrupting", "slow"]);
  });
});

describe("nested fields", () => {
  it("loads the versions of every listed assistant with one batched service call", async () => {
    const tag = { suite: "batched" };
    const ids: string[] = [];
    for (const name of ["batch-a", "batch-b", "batch-c", "batch-d"]) {
      const { createAssistant } = await executeOk(server, CreateAssistantDocument, {
        input: { graphId: "echo", name, metadata: tag },
      });
      ids.push(createAssistant.assistant.assistantId);
    }
    // batch-b gets a second version; updates replace metadata, so tag it again.
    await executeOk(server, UpdateAssistantDocument, { input: { assistantId: ids[1], context: { v: 2 }, metadata: tag } });

    const batched = vi.spyOn(assistantsService, "listVersionsOfMany");
    const perAssistant = vi.spyOn(assistantsService, "listVersions");
    const { assistants } = await executeOk(server, ListAssistantsWithVersionsDocument, { metadata: tag });

    expect(assistants.edges.map((edge) => [edge.node.name, edge.node.versions.totalCount])).toEqual([
      ["batch-a", 1],
      ["batch-b", 2],
      ["batch-c", 1],
      ["batch-d", 1],
    ]);
    expect(assistants.edges[1].node.versions.edges.map((edge) => edge.node)).toEqual([
      { version: 2, context: { v: 2 }, metadata: tag },
      { version: 1, context: {}, metadata: tag },
    ]);
    // N+1 would call the service once per assistant (or use listVersions); batching calls it once.
    expect(batched).toHaveBeenCalledTimes(1);
    expect([...batched.mock.calls[0][1]].sort()).toEqual([...ids].sort());
    expect(perAssistant).not.toHaveBeenCalled();
  });

  it("loads the threads of every listed assistant with one batched service call", async () => {
    const tag = { suite: "assistant-threads" };
    const assistantIds: string[] = [];
    for (const name of ["threads-a", "threads-b", "threads-c"]) {
      const { createAssistant } = await executeOk(server, CreateAssistantDocument, {
        input: { graphId: "echo", name, metadata: tag },
      });
      assistantIds.push(createAssistant.assistant.assistantId);
    }
    const threadIdsOfB: string[] = [];
    for (let index = 0; index < 2; index++) {
      const thread = await server.client.threads.create({ metadata: { assistant_id: assistantIds[1] } });
      threadIdsOfB.push(thread.thread_id);
    }
    await server.client.threads.create({ metadata: { assistant_id: assistantIds[2] } });

    const batched = vi.spyOn(threadsService, "listCreatedByAssistants");
    const { assistants } = await executeOk(server, ListAssistantsWithThreadsDocument, { metadata: tag });

    expect(assistants.edges.map((edge) => [edge.node.name, edge.node.threads.totalCount])).toEqual([
      ["threads-a", 0],
      ["threads-b", 2],
      ["threads-c", 1],
    ]);
    const threadsOfB = assistants.edges[1].node.threads.edges.map((edge) => edge.node);
    expect(threadsOfB.map((thread) => thread.threadId).sort()).toEqual([...threadIdsOfB].sort());
    expect(threadsOfB.every((thread) => thread.assistant?.assistantId === assistantIds[1])).toBe(true);
    expect(batched).toHaveBeenCalledTimes(1);
  });

  it("exposes the graph's schemas, drawing and subgraphs", async () => {
    const { assistant } = await executeOk(server, GetAssistantGraphDocument, { assistantId: "echo" });
    expect(assistant.graphSchemas.graphId).toBe("echo");
    expect(assistant.graphSchemas.stateSchema).toMatchObject({ type: "object" });
    const drawing = assistant.graphDrawing as { nodes: Array<{ id: string }>; edges: unknown[] };
    expect(drawing.nodes.map((node) => node.id)).toEqual(expect.arrayContaining(["__start__", "echo", "__end__"]));
    expect(assistant.subgraphs).toEqual([]);
  });
});
