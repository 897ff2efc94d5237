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

async function countRows(namespace: string[]): Promise<number> {
  const { rows } = await server.hangar.runtime.db.pool.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM store_items WHERE namespace = $1::text[]",
    [namespace],
  );
  return rows[0]!.count;
}

describe("store items through the SDK", () => {
  it("puts, gets (with created_at/updated_at), replaces and deletes an item", async () => {
    const { store } = server.client;
    await store.putItem(["docs", "u1"], "a", { title: "first", n: 1 });
    const item = await store.getItem(["docs", "u1"], "a");
    expect(item).toMatchObject({ namespace: ["docs", "u1"], key: "a", value: { title: "first", n: 1 } });
    expect(item!.createdAt).toMatch(ISO_TIMESTAMP);
    expect(item!.updatedAt).toMatch(ISO_TIMESTAMP);

    await store.putItem(["docs", "u1"], "a", { title: "second" });
    const replaced = await store.getItem(["docs", "u1"], "a");
    expect(replaced!.value).toEqual({ title: "second" });
    expect(replaced!.createdAt).toBe(item!.createdAt);
    expect(Date.parse(String(replaced!.updatedAt))).toBeGreaterThan(Date.parse(String(item!.updatedAt)));

    await store.deleteItem(["docs", "u1"], "a");
    expect(await store.getItem(["docs", "u1"], "a")).toBeNull();
    await store.deleteItem(["docs", "u1"], "a");
  });

  it("answers a missing item with 200 and a JSON null", async () => {
    const response = await server.request("/store/items?namespace=nothing.here&key=k");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("null");
  });

  it("searches under a prefix with filters (equality and the comparison operators)", async () => {
    const { store } = server.client;
    await store.putItem(["shop", "fruit"], "apple", { color: "red", price: 3, tags: ["a"] });
    await store.putItem(["shop", "fruit"], "banana", { color: "yellow", price: 1 });
    await store.putItem(["shop", "veg"], "pepper", { color: "red", price: 5 });
    await store.putItem(["shopping"], "list", { color: "red", price: 0 });

    const keys = async (prefix: string[], filter?: Record<string, unknown>) =>
      (await store.searchItems(prefix, { filter, limit: 50 })).items.map((item) => item.key).sort();
    expect(await keys(["shop"])).toEqual(["apple", "banana", "pepper"]);
    expect(await keys(["shop", "fruit"])).toEqual(["apple", "banana"]);
    expect(await keys(["shop"], { color: "red" })).toEqual(["apple", "pepper"]);
    expect(await keys(["shop"], { color: { $eq: "red" } })).toEqual(["apple", "pepper"]);
    expect(await keys(["shop"], { color: { $ne: "red" } })).toEqual(["banana"]);
    expect(await keys(["shop"], { price: { $gt: 1 } })).toEqual(["apple", "pepper"]);
    expect(await keys(["shop"], { price: { $gte: 3, $lt: 5 } })).toEqual(["apple"]);
    expect(await keys(["shop"], { price: { $lte: 1 } })).toEqual(["banana"]);
    expect(await keys([], { color: "red" })).toEqual(["apple", "list", "pepper"]);
    const [first] = (await store.searchItems(["shop", "fruit"], { filter: { color: "yellow" } })).items;
    expect(first).toMatchObject({ namespace: ["shop", "fruit"], key: "banana", value: { color: "yellow", price: 1 } });
    expect(first!.createdAt).toMatch(ISO_TIMESTAMP);
  });

  it("pages search results without overlap", async () => {
    const { store } = server.client;
    for (let index = 0; index < 7; index++) await store.putItem(["paged"], `k${index}`, { index });
    const seen: string[] = [];
    for (let offset = 0; offset < 9; offset += 3) {
      const page = await store.searchItems(["paged"], { limit: 3, offset });
      seen.push(...page.items.map((item) => item.key));
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
  });

  it("lists namespaces by prefix, suffix (with wildcards), max_depth, limit and offset", async () => {
    const { store } = server.client;
    for (const namespace of [["ns", "a", "x"], ["ns", "a", "y"], ["ns", "b", "x"], ["ns", "c"], ["other", "x"]]) {
      await store.putItem(namespace, "k", { v: 1 });
    }
    const list = async (options: Parameters<typeof store.listNamespaces>[0]) => (await store.listNamespaces(options)).namespaces;
    expect(await list({ prefix: ["ns"] })).toEqual([["ns", "a", "x"], ["ns", "a", "y"], ["ns", "b", "x"], ["ns", "c"]]);
    expect(await list({ prefix: ["ns"], suffix: ["x"] })).toEqual([["ns", "a", "x"], ["ns", "b", "x"]]);
    expect(await list({ prefix: ["ns", "*", "x"] })).toEqual([["ns", "a", "x"], ["ns", "b", "x"]]);
    expect(await list({ suffix: ["x"] })).toEqual([["ns", "a", "x"], ["ns", "b", "x"], ["other", "x"]]);
    expect(await list({ prefix: ["ns"], maxDepth: 2 })).toEqual([["ns", "a"], ["ns", "b"], ["ns", "c"]]);
    expect(await list({ prefix: ["ns"], limit: 2, offset: 1 })).toEqual([["ns", "a", "y"], ["ns", "b", "x"]]);
  });

  it("refreshes an item's TTL on read when asked", async () => {
    const { store } = server.client;
    await store.putItem(["ttl", "refresh"], "k", { v: 1 }, { ttl: 1 });
    const expiresAt = async () =>
      (
        await server.hangar.runtime.db.pool.query<{ expires_at: Date }>(
          "SELECT expires_at FROM store_items WHERE namespace = '{ttl,refresh}' AND key = 'k'",
        )
      ).rows[0]!.expires_at.getTime();
    const before = await expiresAt();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await store.getItem(["ttl", "refresh"], "k", { refreshTtl: false });
    expect(await expiresAt()).toBe(before);
    await store.getItem(["ttl", "refresh"], "k", { refreshTtl: true });
    const refreshed = await expiresAt();
    expect(refreshed).toBeGreaterThan(before);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await store.searchItems(["ttl"], { refreshTtl: true });
    expect(await expiresAt()).toBeGreaterThan(refreshed);
  });
});

describe("bad store input: 422 naming the field, nothing stored", () => {
  const cases: Array<[string, string, Record<string, unknown>, RegExp]> = [
    ["empty namespace", "PUT", { namespace: [], key: "k", value: {} }, /namespace/],
    ["dotted label", "PUT", { namespace: ["bad", "a.b"], key: "k", value: {} }, /namespace\[1\]/],
    ["empty label", "PUT", { namespace: ["bad", ""], key: "k", value: {} }, /namespace\[1\]/],
    ["reserved root", "PUT", { namespace: ["langgraph", "x"], key: "k", value: {} }, /langgraph/],
    ["non-object value", "PUT", { namespace: ["bad"], key: "k", value: [1, 2] }, /value/],
    ["string value", "PUT", { namespace: ["bad"], key: "k", value: "text" }, /value/],
    ["missing key", "PUT", { namespace: ["bad"], value: {} }, /key/],
    ["negative ttl", "PUT", { namespace: ["bad"], key: "k", value: {}, ttl: -1 }, /ttl/],
  ];
  it.each(cases)("%s", async (_name, method, body, detail) => {
    const response = await server.request("/store/items", {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toMatch(detail);
    expect(await countRows(["bad"])).toBe(0);
    expect(await countRows(["bad", "a.b"])).toBe(0);
  });

  const searches: Array<[string, Record<string, unknown>, RegExp]> = [
    ["negative limit", { namespace_prefix: ["a"], limit: -1 }, /limit/],
    ["negative offset", { namespace_prefix: ["a"], offset: -2 }, /offset/],
    ["filter not an object", { namespace_prefix: ["a"], filter: [1] }, /filter/],
    ["unknown operator", { namespace_prefix: ["a"], filter: { x: { $regex: "." } } }, /\$regex/],
    ["query without an index", { namespace_prefix: ["a"], query: "hello" }, /store\.index/],
  ];
  it.each(searches)("search: %s", async (_name, body, detail) => {
    const response = await server.request("/store/items/search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toMatch(detail);
  });

  it("list namespaces: negative limit, bad max_depth", async () => {
    for (const body of [{ limit: -1 }, { max_depth: 0 }, { offset: -1 }]) {
      const response = await server.request("/store/namespaces", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(422);
    }
  });

  it("get and delete with an empty namespace or missing key", async () => {
    expect((await server.request("/store/items?namespace=&key=k")).status).toBe(422);
    expect((await server.request("/store/items?namespace=a")).status).toBe(422);
    const response = await server.request("/store/items", {
      method: "DELETE",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ namespace: ["a"] }),
    });
    expect(response.status).toBe(422);
  });
});
