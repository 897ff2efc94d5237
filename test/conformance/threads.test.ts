import type { Thread } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

describe("threads: create, get, update, delete, copy", () => {
  it("creates an idle thread from {} with empty metadata and config and null values", async () => {
    const response = await server.request("/threads", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(200);
    const thread = (await response.json()) as Thread;
    expect(thread).toMatchObject({ status: "idle", values: null, metadata: {}, config: {}, interrupts: {} });
    expect(thread.thread_id).toMatch(/^[0-9a-f-]{36}$/);
    for (const field of ["created_at", "updated_at", "state_updated_at"] as const) {
      expect(thread[field]).toMatch(ISO_TIMESTAMP);
    }
    expect(await server.client.threads.get(thread.thread_id)).toEqual(thread);
  });

  it("creates through the SDK with a chosen id and metadata; if_exists do_nothing returns it", async () => {
    const threadId = "5d1c7a0e-8b2f-4c3d-9e4f-0a1b2c3d4e5f";
    const created = await server.client.threads.create({ threadId, metadata: { owner: "me" }, ttl: 60 });
    expect(created).toMatchObject({ thread_id: threadId, metadata: { owner: "me" }, status: "idle" });
    const again = await server.client.threads.create({ threadId, metadata: { owner: "you" }, ifExists: "do_nothing" });
    expect(again).toEqual(created);
  });

  it("merges metadata on update", async () => {
    const thread = await server.client.threads.create({ metadata: { a: 1, b: 1 } });
    const updated = await server.client.threads.update(thread.thread_id, { metadata: { b: 2, c: 3 } });
    expect(updated.metadata).toEqual({ a: 1, b: 2, c: 3 });
    expect(Date.parse(updated.updated_at)).toBeGreaterThanOrEqual(Date.parse(thread.updated_at));
    expect((await server.client.threads.get(thread.thread_id)).metadata).toEqual({ a: 1, b: 2, c: 3 });
  });

  it("deletes a thread (204, no body)", async () => {
    const thread = await server.client.threads.create();
    const response = await server.request(`/threads/${thread.thread_id}`, { method: "DELETE" });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    await expect(server.client.threads.get(thread.thread_id)).rejects.toMatchObject({ status: 404 });
    await server.client.threads.delete((await server.client.threads.create()).thread_id);
  });

  it("copies a thread into a new one with the same metadata", async () => {
    const source = await server.client.threads.create({ metadata: { copied: "yes" } });
    const copy = await server.client.threads.copy(source.thread_id);
    expect(copy.thread_id).not.toBe(source.thread_id);
    expect(copy).toMatchObject({ metadata: { copied: "yes" }, status: "idle", values: null });
    expect((await server.client.threads.get(copy.thread_id)).metadata).toEqual({ copied: "yes" });
    expect((await server.client.threads.get(source.thread_id)).thread_id).toBe(source.thread_id);
  });
});

describe("threads: search and count", () => {
  let made: Thread[];

  beforeAll(async () => {
    made = [];
    for (const color of ["red", "green", "blue"]) {
      made.push(await server.client.threads.create({ metadata: { suite: "search", color } }));
      // Distinct created_at values, so sorting by it follows creation order.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });

  it("filters by metadata containment, status and ids; count agrees", async () => {
    const { threads } = server.client;
    const all = await threads.search({ metadata: { suite: "search" } });
    expect(all.map((t) => t.thread_id).sort()).toEqual(made.map((t) => t.thread_id).sort());
    expect(await threads.count({ metadata: { suite: "search" } })).toBe(3);

    const green = await threads.search({ metadata: { suite: "search", color: "green" } });
    expect(green.map((t) => t.thread_id)).toEqual([made[1].thread_id]);
    expect(await threads.count({ metadata: { color: "green" } })).toBe(1);

    expect(await threads.search({ metadata: { suite: "search" }, status: "busy" })).toEqual([]);
    expect(await threads.count({ metadata: { suite: "search" }, status: "idle" })).toBe(3);
    expect(await threads.count({ metadata: { suite: "search" }, status: "error" })).toBe(0);

    const byIds = await threads.search({ ids: [made[0].thread_id, made[2].thread_id] });
    expect(byIds.map((t) => t.thread_id).sort()).toEqual([made[0].thread_id, made[2].thread_id].sort());
  });

  it("filters on values (no thread has state yet)", async () => {
    expect(await server.client.threads.search({ values: { messages: [] } })).toEqual([]);
    expect(await server.client.threads.count({ values: { messages: [] } })).toBe(0);
  });

  it("pages with limit/offset in a stable order and sets X-Pagination-Next", async () => {
    const { threads } = server.client;
    const query = { metadata: { suite: "search" }, sortBy: "created_at", sortOrder: "asc" } as const;
    const first = await threads.search({ ...query, limit: 2 });
    const second = await threads.search({ ...query, limit: 2, offset: 2 });
    expect([...first, ...second].map((t) => t.thread_id)).toEqual(made.map((t) => t.thread_id));

    const page = await server.request("/threads/search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...query, sort_by: "created_at", sort_order: "asc", limit: 2 }),
    });
    expect(page.headers.get("x-pagination-next")).toBe("2");
    const last = await server.request("/threads/search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ metadata: { suite: "search" }, limit: 2, offset: 2 }),
    });
    expect(last.headers.get("x-pagination-next")).toBeNull();

    const descending = await threads.search({ ...query, sortOrder: "desc" });
    expect(descending.map((t) => t.thread_id)).toEqual(made.map((t) => t.thread_id).reverse());
  });

  it("projects the selected fields only", async () => {
    const rows = await server.client.threads.search({ metadata: { suite: "search" }, select: ["thread_id", "status"] });
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(["status", "thread_id"]);
  });
});
