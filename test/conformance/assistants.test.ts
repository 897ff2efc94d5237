import type { Assistant } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// LangGraph Platform derives a graph's system assistant id as uuid5(graph_id); clients hard-code
// these, so they must never change.
const AGENT_SYSTEM_ASSISTANT_ID = "fe096781-5601-53d2-b2f6-0d3403f7e9ca";
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

async function postJson(path: string, body: unknown): Promise<Response> {
  return server.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("assistants: create, get, update, versions", () => {
  it("creates version 1 with defaults and reads it back by id", async () => {
    const created = await server.client.assistants.create({ graphId: "echo", name: "plain" });
    expect(created).toMatchObject({
      graph_id: "echo",
      name: "plain",
      config: {},
      context: {},
      metadata: {},
      version: 1,
    });
    expect(created.assistant_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.created_at).toMatch(ISO_TIMESTAMP);
    expect(created.updated_at).toMatch(ISO_TIMESTAMP);
    expect(await server.client.assistants.get(created.assistant_id)).toEqual(created);
  });

  it("keeps a caller-chosen id, and if_exists do_nothing returns the existing assistant", async () => {
    const assistantId = "0b7c7d6e-4f2a-4e55-9a51-3b3f0c1f2a11";
    const first = await server.client.assistants.create({ graphId: "echo", assistantId, name: "mine" });
    expect(first.assistant_id).toBe(assistantId);
    const again = await server.client.assistants.create({
      graphId: "agent",
      assistantId,
      name: "other",
      ifExists: "do_nothing",
    });
    expect(again).toEqual(first);
  });

  it("builds each version only from the supplied context and metadata", async () => {
    const { assistants } = server.client;
    const v1 = await assistants.create({
      graphId: "echo",
      name: "versioned",
      description: "d",
      config: { tags: ["t"] },
      context: { a: 1, b: 2 },
      metadata: { x: 1 },
    });
    const v2 = await assistants.update(v1.assistant_id, { context: { a: 3 } });
    expect(v2).toMatchObject({
      assistant_id: v1.assistant_id,
      graph_id: "echo",
      name: "versioned",
      description: "d",
      config: { tags: ["t"] },
      context: { a: 3 },
      metadata: {},
      version: 2,
    });
    expect((await assistants.get(v1.assistant_id)).version).toBe(2);

    const back = await assistants.setLatest(v1.assistant_id, 1);
    expect(back).toMatchObject({ context: { a: 1, b: 2 }, metadata: { x: 1 }, version: 1 });
    expect(await assistants.get(v1.assistant_id)).toMatchObject({ context: { a: 1, b: 2 }, version: 1 });

    const versions = await assistants.getVersions(v1.assistant_id);
    expect(versions.map((version) => [version.version, version.context])).toEqual([
      [2, { a: 3 }],
      [1, { a: 1, b: 2 }],
    ]);
    expect(versions[0]).not.toHaveProperty("updated_at");

    const v3 = await assistants.update(v1.assistant_id, { metadata: { y: 2 } });
    expect(v3).toMatchObject({ version: 3, context: {}, metadata: { y: 2 } });
    expect((await assistants.getVersions(v1.assistant_id, { limit: 1 })).map((v) => v.version)).toEqual([3]);
    expect((await assistants.getVersions(v1.assistant_id, { metadata: { x: 1 } })).map((v) => v.version)).toEqual([1]);
  });
});

describe("assistants: system assistants", () => {
  it("has one per deployed graph, reachable by graph name, with a stable id", async () => {
    const system = await server.client.assistants.search({ metadata: { created_by: "system" } });
    expect(system.map((assistant) => assistant.graph_id).sort()).toEqual(["agent", "echo", "failing", "interrupting", "slow"]);
    const byName = await server.client.assistants.get("agent");
    expect(byName.assistant_id).toBe(AGENT_SYSTEM_ASSISTANT_ID);
    expect(byName).toMatchObject({ graph_id: "agent", metadata: { created_by: "system" }, version: 1 });
    expect(system.find((assistant) => assistant.graph_id === "agent")?.assistant_id).toBe(AGENT_SYSTEM_ASSISTANT_ID);
    expect(await server.client.assistants.get(AGENT_SYSTEM_ASSISTANT_ID)).toEqual(byName);
  });
});

describe("assistants: search and count", () => {
  let made: Assistant[];

  beforeAll(async () => {
    made = [];
    for (const [name, graphId, config] of [
      ["charlie search", "echo", undefined],
      ["alpha search", "agent", { configurable: { k: 1 } }],
      ["bravo search", "echo", undefined],
    ] as const) {
      made.push(await server.client.assistants.create({ graphId, name, config, metadata: { suite: "search", name } }));
    }
  });

  it("filters by graph_id, name substring and metadata containment; count agrees", async () => {
    const { assistants } = server.client;
    const echo = await assistants.search({ graphId: "echo", metadata: { suite: "search" } });
    expect(echo.map((a) => a.name).sort()).toEqual(["bravo search", "charlie search"]);
    expect(await assistants.count({ graphId: "echo", metadata: { suite: "search" } })).toBe(2);

    const byName = await assistants.search({ name: "LPHA SEA" });
    expect(byName.map((a) => a.assistant_id)).toEqual([made[1].assistant_id]);
    expect(await assistants.count({ name: "LPHA SEA" })).toBe(1);

    const byMetadata = await assistants.search({ metadata: { suite: "search", name: "bravo search" } });
    expect(byMetadata.map((a) => a.assistant_id)).toEqual([made[2].assistant_id]);
    expect(await assistants.count({ metadata: { suite: "search" } })).toBe(3);
  });

  it("finds unconfigured assistants with config {} or null", async () => {
    for (const config of [{}, null]) {
      const response = await postJson("/assistants/search", { config, metadata: { suite: "search" } });
      expect(response.status).toBe(200);
      const names = ((await response.json()) as Assistant[]).map((a) => a.name).sort();
      expect(names).toEqual(["bravo search", "charlie search"]);
      const count = await postJson("/assistants/count", { config, metadata: { suite: "search" } });
      expect(await count.json()).toBe(2);
    }
    const configured = await postJson("/assistants/search", { config: { configurable: { k: 1 } } });
    expect(((await configured.json()) as Assistant[]).map((a) => a.name)).toEqual(["alpha search"]);
  });

  it("pages with limit/offset and X-Pagination-Next, sorted by name", async () => {
    const { assistants } = server.client;
    const query = { metadata: { suite: "search" }, sortBy: "name", sortOrder: "asc", includePagination: true } as const;
    const first = await assistants.search({ ...query, limit: 2 });
    expect(first.assistants.map((a) => a.name)).toEqual(["alpha search", "bravo search"]);
    expect(first.next).toBe("2");
    const second = await assistants.search({ ...query, limit: 2, offset: 2 });
    expect(second.assistants.map((a) => a.name)).toEqual(["charlie search"]);
    expect(second.next).toBeNull();
    const exact = await assistants.search({ ...query, limit: 3 });
    expect(exact.next).toBeNull();
    const descending = await assistants.search({ metadata: { suite: "search" }, sortBy: "name", sortOrder: "desc" });
    expect(descending.map((a) => a.name)).toEqual(["charlie search", "bravo search", "alpha search"]);
  });

  it("projects the selected fields only", async () => {
    const rows = await server.client.assistants.search({ metadata: { suite: "search" }, select: ["assistant_id", "name"] });
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(["assistant_id", "name"]);
  });
});

describe("assistants: delete", () => {
  it("deletes all versions; delete_threads removes only the threads it created", async () => {
    const { assistants, threads } = server.client;
    const assistant = await assistants.create({ graphId: "echo" });
    await assistants.update(assistant.assistant_id, { context: { v: 2 } });
    const owned = await threads.create({ metadata: { assistant_id: assistant.assistant_id } });
    const ownedToo = await threads.create({ metadata: { assistant_id: assistant.assistant_id, other: 1 } });
    const foreign = await threads.create({ metadata: { assistant_id: AGENT_SYSTEM_ASSISTANT_ID } });
    const unrelated = await threads.create();

    await assistants.delete(assistant.assistant_id, { deleteThreads: true });

    await expect(assistants.get(assistant.assistant_id)).rejects.toMatchObject({ status: 404 });
    await expect(assistants.getVersions(assistant.assistant_id)).rejects.toMatchObject({ status: 404 });
    for (const gone of [owned, ownedToo]) {
      await expect(threads.get(gone.thread_id)).rejects.toMatchObject({ status: 404 });
    }
    expect((await threads.get(foreign.thread_id)).thread_id).toBe(foreign.thread_id);
    expect((await threads.get(unrelated.thread_id)).thread_id).toBe(unrelated.thread_id);
  });

  it("delete_threads also deletes the checkpoints of the threads it deletes", async () => {
    const { assistants, runs, threads } = server.client;
    const assistant = await assistants.create({ graphId: "echo" });
    const owned = await threads.create({ metadata: { assistant_id: assistant.assistant_id } });
    const kept = await threads.create();
    const input = { messages: [{ role: "user", content: "hi" }] };
    await runs.wait(owned.thread_id, assistant.assistant_id, { input });
    // Run by another assistant (a run records its assistant in the thread's metadata).
    await runs.wait(kept.thread_id, "echo", { input });
    const checkpointsOf = async (threadId: string) =>
      (await sql<{ n: number }>(server.database, "SELECT count(*)::int AS n FROM checkpoints WHERE thread_id = $1", [threadId]))[0]!.n;
    expect(await checkpointsOf(owned.thread_id)).toBeGreaterThan(0);

    await assistants.delete(assistant.assistant_id, { deleteThreads: true });

    await expect(threads.get(owned.thread_id)).rejects.toMatchObject({ status: 404 });
    expect(await checkpointsOf(owned.thread_id)).toBe(0);
    expect(await checkpointsOf(kept.thread_id)).toBeGreaterThan(0);
  });

  it("keeps the threads without delete_threads and answers 204 with no body", async () => {
    const assistant = await server.client.assistants.create({ graphId: "echo" });
    const thread = await server.client.threads.create({ metadata: { assistant_id: assistant.assistant_id } });
    const response = await server.request(`/assistants/${assistant.assistant_id}?delete_threads=false`, {
      method: "DELETE",
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect((await server.client.threads.get(thread.thread_id)).thread_id).toBe(thread.thread_id);
    await expect(server.client.assistants.get(assistant.assistant_id)).rejects.toMatchObject({ status: 404 });
  });
});

describe("assistants: graph introspection", () => {
  it("draws the graph of an assistant's graph", async () => {
    const drawing = await server.client.assistants.getGraph("echo");
    expect(drawing.nodes.map((node) => node.id)).toEqual(expect.arrayContaining(["__start__", "echo", "__end__"]));
    expect(drawing.edges).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: "__start__", target: "echo" }),
        expect.objectContaining({ source: "echo", target: "__end__" }),
      ]),
    );
    const xray = await server.client.assistants.getGraph("echo", { xray: 1 });
    expect(xray.nodes.map((node) => node.id)).toContain("echo");
  });

  it("serves the JSON schemas, with the agent's context schema", async () => {
    const assistant = await server.client.assistants.create({ graphId: "agent" });
    const schemas = await server.client.assistants.getSchemas(assistant.assistant_id);
    expect(schemas.graph_id).toBe("agent");
    const context = schemas.context_schema as { properties?: Record<string, unknown> } | null;
    expect(Object.keys(context?.properties ?? {})).toEqual(expect.arrayContaining(["model_name", "system_prompt"]));
    expect(schemas.state_schema).not.toBeNull();
  });

  it("lists subgraphs (none in the fixture graphs)", async () => {
    expect(await server.client.assistants.getSubgraphs("agent")).toEqual({});
    expect(await server.client.assistants.getSubgraphs("echo", { recurse: true })).toEqual({});
    expect(await server.client.assistants.getSubgraphs("echo", { namespace: "inner" })).toEqual({});
  });

  it("answers 404 naming the graph when an assistant's graph is no longer deployed", async () => {
    const orphan = await server.client.assistants.create({ graphId: "echo", name: "orphan" });
    // langgraph.json changed between deployments: the stored assistant names a graph that is gone.
    await server.hangar.runtime.db.pool.query("UPDATE assistants SET graph_id = 'retired' WHERE assistant_id = $1", [
      orphan.assistant_id,
    ]);
    for (const path of ["schemas", "graph", "subgraphs"]) {
      const response = await server.request(`/assistants/${orphan.assistant_id}/${path}`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/Graph 'retired' is not deployed/);
    }
    expect((await server.client.assistants.get(orphan.assistant_id)).graph_id).toBe("retired");
  });
});
