import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Search, count, versions and PATCH semantics of assistants, threads and crons through the
// official SDK client, as plain SQL statements now answer them (db/sql/search-*.ts).
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ roles: { api: true, worker: false, cron: false } });
});
afterAll(async () => {
  await server?.close();
});

type Row = Record<string, unknown>;

/**
 * The order a search must answer: by `key` in `order` (NULLs last in either direction when
 * `nullsLast`), ties by `id` in the same direction. Keys are wire strings (ids, ISO times,
 * lower-case ASCII names), whose code-unit order is PostgreSQL's.
 */
function expectedOrder(rows: Row[], key: string, id: string, order: "asc" | "desc", nullsLast = false): unknown[] {
  const sign = order === "asc" ? 1 : -1;
  const compare = (a: unknown, b: unknown) => (a === b ? 0 : String(a) < String(b) ? -sign : sign);
  return [...rows]
    .sort((a, b) => {
      if (nullsLast && (a[key] == null) !== (b[key] == null)) return a[key] == null ? 1 : -1;
      return compare(a[key], b[key]) || compare(a[id], b[id]);
    })
    .map((row) => row[id]);
}

/** The ids of every page of `size` until a short one, put together. */
async function allPages(search: (limit: number, offset: number) => Promise<Row[]>, size: number, id: string): Promise<unknown[]> {
  const ids: unknown[] = [];
  for (let offset = 0; ; offset += size) {
    const page = await search(size, offset);
    ids.push(...page.map((row) => row[id]));
    if (page.length < size) return ids;
  }
}

describe("assistants.search", () => {
  const marker = { suite: "assistant-sort" };
  let rows: Row[] = [];
  beforeAll(async () => {
    // Names and graph ids repeat, so most sort columns have ties for the id to break.
    for (const name of ["b", "a", "b", "c", "a"]) await server.client.assistants.create({ graphId: "echo", name, metadata: marker });
    await server.client.assistants.create({ graphId: "slow", name: "c", metadata: marker });
    rows = (await server.client.assistants.search({ metadata: marker, limit: 100 })) as unknown as Row[];
  });

  for (const sortBy of ["assistant_id", "graph_id", "name", "created_at", "updated_at"] as const) {
    for (const sortOrder of ["asc", "desc"] as const) {
      it(`sort_by ${sortBy} ${sortOrder}: pages of 2 put together are the whole order, ties broken by id`, async () => {
        const paged = await allPages(
          async (limit, offset) => (await server.client.assistants.search({ metadata: marker, sortBy, sortOrder, limit, offset })) as unknown as Row[],
          2,
          "assistant_id",
        );
        expect(paged).toEqual(expectedOrder(rows, sortBy, "assistant_id", sortOrder));
      });
    }
  }

  it("counts what the same filters find", async () => {
    for (const filter of [{ metadata: marker }, { metadata: marker, graphId: "slow" }, { graphId: "slow", name: "C" }, { metadata: { suite: "none" } }]) {
      const found = await server.client.assistants.search({ ...filter, limit: 100 });
      expect(await server.client.assistants.count(filter)).toBe(found.length);
    }
    expect(await server.client.assistants.count({ metadata: marker, graphId: "echo" })).toBe(5);
  });
});

describe("threads.search and count", () => {
  let ids: string[] = [];
  beforeAll(async () => {
    const metadatas = [
      { suite: "thread-filter", tags: ["x", "y"], gone: null, text: "{}" },
      { suite: "thread-filter", tags: ["y"] },
      { suite: "thread-filter", tags: "x", text: "{}" },
    ];
    ids = [];
    for (const metadata of metadatas) ids.push((await server.client.threads.create({ metadata })).thread_id);
  });

  it("metadata containment with an array, a null and a string that looks like JSON", async () => {
    const found = async (metadata: Row) =>
      (await server.client.threads.search({ metadata: { suite: "thread-filter", ...metadata }, limit: 10, sortBy: "created_at", sortOrder: "asc" })).map(
        (thread) => ids.indexOf(thread.thread_id),
      );
    expect(await found({ tags: ["x"] })).toEqual([0]);
    expect(await found({ tags: ["y"] })).toEqual([0, 1]);
    expect(await found({ tags: "x" })).toEqual([2]);
    expect(await found({ gone: null })).toEqual([0]);
    expect(await found({ text: "{}" })).toEqual([0, 2]);
    expect(await server.client.threads.count({ metadata: { suite: "thread-filter", tags: ["y"] } })).toBe(2);
    expect(await server.client.threads.count({ metadata: { suite: "thread-filter" }, status: "busy" })).toBe(0);
  });

  for (const sortBy of ["thread_id", "status", "created_at", "updated_at", "state_updated_at"] as const) {
    it(`sort_by ${sortBy}: pages of 1 put together are the whole order, ties broken by id`, async () => {
      const rows = (await server.client.threads.search({ metadata: { suite: "thread-filter" }, limit: 100 })) as unknown as Row[];
      for (const sortOrder of ["asc", "desc"] as const) {
        const paged = await allPages(
          async (limit, offset) =>
            (await server.client.threads.search({ metadata: { suite: "thread-filter" }, sortBy, sortOrder, limit, offset })) as unknown as Row[],
          1,
          "thread_id",
        );
        expect(paged).toEqual(expectedOrder(rows, sortBy, "thread_id", sortOrder));
      }
    });
  }

  it("concurrent metadata PATCHes of one thread all land (no update is lost)", async () => {
    const thread = await server.client.threads.create({ metadata: { base: true } });
    await Promise.all(Array.from({ length: 8 }, (_, i) => server.client.threads.update(thread.thread_id, { metadata: { [`k${i}`]: i } })));
    const metadata = (await server.client.threads.get(thread.thread_id)).metadata;
    expect(metadata).toEqual({ base: true, k0: 0, k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6, k7: 7 });
  });

  it("a PATCH of a missing thread answers 404 and creates nothing", async () => {
    const missing = "00000000-0000-4000-8000-00000000abcd";
    const response = await server.request(`/threads/${missing}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ metadata: { a: 1 } }),
    });
    expect(response.status).toBe(404);
    expect((await server.request(`/threads/${missing}`)).status).toBe(404);
  });
});

describe("crons.search", () => {
  const marker = { suite: "cron-sort" };
  let rows: Row[] = [];
  beforeAll(async () => {
    const [first, second] = [await server.client.threads.create(), await server.client.threads.create()];
    // Two crons on one thread (a tie), two stateless ones (thread_id NULL), one disabled (no next run).
    await server.client.crons.createForThread(first.thread_id, "echo", { schedule: "0 1 * * *", input: {}, metadata: marker });
    await server.client.crons.createForThread(first.thread_id, "echo", { schedule: "0 2 * * *", input: {}, metadata: marker });
    await server.client.crons.createForThread(second.thread_id, "echo", { schedule: "0 1 * * *", input: {}, metadata: marker });
    await server.client.crons.create("echo", { schedule: "0 3 * * *", input: {}, metadata: marker });
    const disabled = await server.client.crons.create("slow", { schedule: "0 3 * * *", input: {}, metadata: marker });
    await server.client.crons.update(disabled.cron_id, { enabled: false });
    rows = (await server.client.crons.search({ metadata: marker, limit: 100 })) as unknown as Row[];
  });

  for (const sortBy of ["cron_id", "assistant_id", "thread_id", "created_at", "updated_at", "next_run_date"] as const) {
    it(`sort_by ${sortBy}: pages of 2 put together are the whole order, NULLs last, ties broken by id`, async () => {
      for (const sortOrder of ["asc", "desc"] as const) {
        const paged = await allPages(
          async (limit, offset) => (await server.client.crons.search({ metadata: marker, sortBy, sortOrder, limit, offset })) as unknown as Row[],
          2,
          "cron_id",
        );
        expect(paged).toEqual(expectedOrder(rows, sortBy, "cron_id", sortOrder, true));
      }
    });
  }

  it("counts what the same filters find; a disabled cron has no next run", async () => {
    expect(rows).toHaveLength(5);
    expect(rows.filter((row) => row.next_run_date == null)).toHaveLength(1);
    expect(await server.client.crons.count({ metadata: marker })).toBe(5);
    const stateless = rows.find((row) => row.thread_id == null)!;
    expect(await server.client.crons.count({ metadata: marker, assistantId: String(stateless.assistant_id) })).toBe(
      rows.filter((row) => row.assistant_id === stateless.assistant_id).length,
    );
  });
});

describe("assistant versions", () => {
  it("a missing version, a missing assistant and a filter that matches no version", async () => {
    const assistant = await server.client.assistants.create({ graphId: "echo", metadata: { v: 1 } });
    const missing = "00000000-0000-4000-8000-00000000dcba";
    const noVersion = await server.request(`/assistants/${assistant.assistant_id}/latest`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ version: 7 }),
    });
    expect(noVersion.status).toBe(404);
    expect(await noVersion.json()).toMatchObject({ detail: expect.stringContaining("no version 7") });
    const noAssistant = await server.request(`/assistants/${missing}/latest`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ version: 1 }),
    });
    expect(noAssistant.status).toBe(404);
    expect(await noAssistant.json()).toMatchObject({ detail: expect.stringContaining(missing) });
    const versionsOfMissing = await server.request(`/assistants/${missing}/versions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(versionsOfMissing.status).toBe(404);
    expect(await server.client.assistants.getVersions(assistant.assistant_id, { metadata: { v: 2 } })).toEqual([]);
    expect((await server.client.assistants.getVersions(assistant.assistant_id, { metadata: { v: 1 } })).map((version) => version.version)).toEqual([1]);
  });
});
