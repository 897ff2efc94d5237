import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { CreateAssistantDocument, CreateThreadDocument, GetNodeDocument, GetNodesDocument, GetThreadDocument } from "./generated/graphql.js";
import { errorCode, executeOk, executeOperation } from "./helpers.js";

// Relay global ids are base64("<Type>:<raw id>").
const UNKNOWN_THREAD_GLOBAL_ID = Buffer.from("Thread:00000000-0000-4000-8000-000000000000").toString("base64");

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

async function withDatabase<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server.database.url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

describe("node(id)", () => {
  it("round-trips the global ids of assistants and threads", async () => {
    const { createAssistant } = await executeOk(server, CreateAssistantDocument, { input: { graphId: "echo", name: "noded" } });
    const { createThread } = await executeOk(server, CreateThreadDocument, { input: { metadata: { k: "v" } } });

    const assistantNode = await executeOk(server, GetNodeDocument, { id: createAssistant.assistant.id });
    expect(assistantNode.node).toEqual({
      __typename: "Assistant",
      id: createAssistant.assistant.id,
      assistantId: createAssistant.assistant.assistantId,
      name: "noded",
    });
    const threadNode = await executeOk(server, GetNodeDocument, { id: createThread.thread.id });
    expect(threadNode.node).toEqual({
      __typename: "Thread",
      id: createThread.thread.id,
      threadId: createThread.thread.threadId,
      metadata: { k: "v" },
    });
    // Global ids are distinct from the raw UUIDs they wrap.
    expect(createThread.thread.id).not.toBe(createThread.thread.threadId);

    const both = await executeOk(server, GetNodesDocument, { ids: [createThread.thread.id, createAssistant.assistant.id] });
    expect(both.nodes.map((node) => node?.__typename)).toEqual(["Thread", "Assistant"]);
  });

  it("answers null for a well-formed id of nothing and INVALID_INPUT for a malformed one", async () => {
    const nothing = await executeOperation(server, GetNodeDocument, { id: UNKNOWN_THREAD_GLOBAL_ID });
    expect(nothing.errors).toBeUndefined();
    expect(nothing.data?.node).toBeNull();

    const malformed = await executeOperation(server, GetNodeDocument, { id: "definitely not a global id" });
    expect(errorCode(malformed)).toBe("INVALID_INPUT");
  });
});

describe("error mapping", () => {
  it("masks an unexpected failure as 'Unexpected error.' without leaking its cause", async () => {
    const { createThread } = await executeOk(server, CreateThreadDocument, { input: {} });
    await withDatabase((client) => client.query("ALTER TABLE threads RENAME TO threads_hidden_by_test"));
    try {
      const response = await server.request("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query: "query ($id: ID!) { thread(threadId: $id) { threadId } }",
          variables: { id: createThread.thread.threadId },
        }),
      });
      const text = await response.text();
      const body = JSON.parse(text) as { errors: Array<{ message: string; extensions: { code: string } }> };
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0].message).toBe("Unexpected error.");
      expect(body.errors[0].extensions.code).toBe("INTERNAL_SERVER_ERROR");
      expect(text).not.toMatch(/relation|threads|select/i);
    } finally {
      await withDatabase((client) => client.query("ALTER TABLE threads_hidden_by_test RENAME TO threads"));
    }
    // The server is fine afterwards.
    await executeOk(server, GetThreadDocument, { threadId: createThread.thread.threadId });
  });

  it("leaves GraphQL's own validation errors as they are", async () => {
    const response = await server.request("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ assistant(assistantId: \"echo\") { noSuchField } }" }),
    });
    const body = (await response.json()) as { errors: Array<{ message: string; extensions?: { code?: string } }> };
    expect(body.errors[0].message).toContain("noSuchField");
    expect(body.errors[0].message).not.toBe("Unexpected error.");
  });

  it("rejects a JSONObject argument that is not an object", async () => {
    const result = await executeOperation(server, CreateThreadDocument, {
      input: { metadata: ["not", "an", "object"] as unknown as Record<string, unknown> },
    });
    expect(result.errors?.[0]?.message).toContain("JSONObject");
    expect(result.data ?? null).toBeNull();
  });

  it("keeps the data of sibling fields when one field fails", async () => {
    const response = await server.request("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `{ ok: assistants(graphId: "echo") { totalCount } missing: node(id: "${UNKNOWN_THREAD_GLOBAL_ID}") { id } }`,
      }),
    });
    const body = (await response.json()) as { data: { ok: { totalCount: number }; missing: null } };
    expect(body.data.ok.totalCount).toBeGreaterThanOrEqual(1);
    expect(body.data.missing).toBeNull();
  });
});
