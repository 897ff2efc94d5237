import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import {
  CreateAssistantDocument,
  DeleteAssistantDocument,
  GetAssistantDocument,
  GetAssistantVersionsDocument,
  SetAssistantVersionDocument,
  UpdateAssistantDocument,
} from "./generated/graphql.js";
import { errorCode, executeOk, executeOperation } from "./helpers.js";

// uuid5("agent") in LangGraph Platform's namespace: the agent graph's system assistant.
const AGENT_SYSTEM_ASSISTANT_ID = "fe096781-5601-53d2-b2f6-0d3403f7e9ca";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

describe("createAssistant → updateAssistant → setAssistantVersion", () => {
  it("creates a new version per update with exactly the given context/metadata, and switches back", async () => {
    const { createAssistant } = await executeOk(server, CreateAssistantDocument, {
      input: { graphId: "echo", name: "versioned", context: { a: 1, b: 2 }, metadata: { x: 1 } },
    });
    const created = createAssistant.assistant;
    expect(created).toMatchObject({ version: 1, context: { a: 1, b: 2 }, metadata: { x: 1 }, name: "versioned" });
    expect(created.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const { updateAssistant } = await executeOk(server, UpdateAssistantDocument, {
      input: { assistantId: created.assistantId, context: { a: 3 } },
    });
    // context is exactly what was given; metadata was omitted → {}; name carries over.
    expect(updateAssistant.assistant).toMatchObject({ version: 2, context: { a: 3 }, metadata: {}, name: "versioned" });

    const versions = await executeOk(server, GetAssistantVersionsDocument, { assistantId: created.assistantId });
    expect(versions.assistant.versions.totalCount).toBe(2);
    expect(versions.assistant.versions.edges.map((edge) => edge.node)).toMatchObject([
      { version: 2, context: { a: 3 }, metadata: {} },
      { version: 1, context: { a: 1, b: 2 }, metadata: { x: 1 } },
    ]);

    const { setAssistantVersion } = await executeOk(server, SetAssistantVersionDocument, {
      input: { assistantId: created.assistantId, version: 1 },
    });
    expect(setAssistantVersion.assistant).toMatchObject({ version: 1, context: { a: 1, b: 2 }, metadata: { x: 1 } });
    const reread = await executeOk(server, GetAssistantDocument, { assistantId: created.assistantId });
    expect(reread.assistant).toMatchObject({ version: 1, context: { a: 1, b: 2 }, metadata: { x: 1 } });

    // A later update is version 3 (N = highest existing, not the active one).
    const third = await executeOk(server, UpdateAssistantDocument, {
      input: { assistantId: created.assistantId, metadata: { y: 2 } },
    });
    expect(third.updateAssistant.assistant).toMatchObject({ version: 3, context: {}, metadata: { y: 2 } });
  });

  it("pages the versions connection", async () => {
    const { createAssistant } = await executeOk(server, CreateAssistantDocument, { input: { graphId: "echo" } });
    const assistantId = createAssistant.assistant.assistantId;
    for (const n of [2, 3, 4]) {
      await executeOk(server, UpdateAssistantDocument, { input: { assistantId, context: { n } } });
    }
    const first = await executeOk(server, GetAssistantVersionsDocument, { assistantId, first: 3 });
    expect(first.assistant.versions.edges.map((edge) => edge.node.version)).toEqual([4, 3, 2]);
    expect(first.assistant.versions.pageInfo.hasNextPage).toBe(true);
    const rest = await executeOk(server, GetAssistantVersionsDocument, {
      assistantId,
      first: 3,
      after: first.assistant.versions.pageInfo.endCursor,
    });
    expect(rest.assistant.versions.edges.map((edge) => edge.node.version)).toEqual([1]);
    expect(rest.assistant.versions.pageInfo.hasNextPage).toBe(false);
    expect(rest.assistant.versions.totalCount).toBe(4);
  });

  it("clears the description only when null is sent explicitly", async () => {
    const { createAssistant } = await executeOk(server, CreateAssistantDocument, {
      input: { graphId: "echo", description: "keep me" },
    });
    const assistantId = createAssistant.assistant.assistantId;
    const kept = await executeOk(server, UpdateAssistantDocument, { input: { assistantId, name: "renamed" } });
    expect(kept.updateAssistant.assistant).toMatchObject({ name: "renamed", description: "keep me" });
    const cleared = await executeOk(server, UpdateAssistantDocument, { input: { assistantId, description: null } });
    expect(cleared.updateAssistant.assistant).toMatchObject({ name: "renamed", description: null });
  });

  it("accepts a graph name wherever an assistant id is accepted", async () => {
    const byName = await executeOk(server, GetAssistantDocument, { assistantId: "agent" });
    expect(byName.assistant).toMatchObject({ assistantId: AGENT_SYSTEM_ASSISTANT_ID, graphId: "agent" });
    expect(byName.assistant.metadata).toMatchObject({ created_by: "system" });
  });

  it("returns the existing assistant with ifExists: DO_NOTHING and CONFLICT by default", async () => {
    const assistantId = "5d1f3a52-5f5b-4cc2-9b8b-3f7c3a9f2b10";
    await executeOk(server, CreateAssistantDocument, { input: { graphId: "echo", assistantId, name: "first" } });
    const again = await executeOk(server, CreateAssistantDocument, {
      input: { graphId: "echo", assistantId, name: "second", ifExists: "DO_NOTHING" },
    });
    expect(again.createAssistant.assistant).toMatchObject({ assistantId, name: "first" });

    const duplicate = await executeOperation(server, CreateAssistantDocument, {
      input: { graphId: "echo", assistantId, name: "third" },
    });
    expect(errorCode(duplicate)).toBe("CONFLICT");
    expect(duplicate.errors?.[0]?.message).toContain(assistantId);
    expect(duplicate.errors?.[0]?.path).toEqual(["createAssistant"]);
  });

  it("rejects an unknown graph with INVALID_INPUT naming the deployed graphs", async () => {
    const result = await executeOperation(server, CreateAssistantDocument, { input: { graphId: "nope" } });
    expect(errorCode(result)).toBe("INVALID_INPUT");
    expect(result.errors?.[0]?.message).toContain("agent");
    expect(result.errors?.[0]?.message).toContain("echo");
    expect(result.data).toBeNull();
  });

  it("answers NOT_FOUND for an unknown assistant and an unknown version", async () => {
    const unknown = await executeOperation(server, GetAssistantDocument, {
      assistantId: "00000000-0000-4000-8000-000000000000",
    });
    expect(errorCode(unknown)).toBe("NOT_FOUND");
    expect(unknown.status).toBe(200);

    const { createAssistant } = await executeOk(server, CreateAssistantDocument, { input: { graphId: "echo" } });
    const badVersion = await executeOperation(server, SetAssistantVersionDocument, {
      input: { assistantId: createAssistant.assistant.assistantId, version: 42 },
    });
    expect(errorCode(badVersion)).toBe("NOT_FOUND");
  });

  it("deletes an assistant with all its versions", async () => {
    const { createAssistant } = await executeOk(server, CreateAssistantDocument, { input: { graphId: "echo" } });
    const { assistantId, id } = createAssistant.assistant;
    const { deleteAssistant } = await executeOk(server, DeleteAssistantDocument, { input: { assistantId } });
    expect(deleteAssistant).toEqual({ deletedAssistantId: assistantId, deletedId: id });
    expect(errorCode(await executeOperation(server, GetAssistantDocument, { assistantId }))).toBe("NOT_FOUND");
    const again = await executeOperation(server, DeleteAssistantDocument, { input: { assistantId } });
    expect(errorCode(again)).toBe("NOT_FOUND");
  });
});
