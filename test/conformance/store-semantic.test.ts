import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SearchStoreItemsDocument } from "../graphql/generated/graphql.js";
import { executeOk } from "../graphql/helpers.js";
import { checkSemanticRanking } from "../helpers/semantic-store.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures");

describe("semantic search on PostgreSQL without pgvector (exact scan)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ configPath: path.join(fixtures, "store.langgraph.json") });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("ranks by similarity on the example's offline embedding, honouring index false and field lists", async () => {
    await checkSemanticRanking(server.client, "exact");
    const { rows } = await server.hangar.runtime.db.pool.query("SELECT 1 FROM pg_indexes WHERE indexname = 'store_vectors_embedding_hnsw_idx'");
    expect(rows).toEqual([]);
  });

  it("a graph's store.search with a query ranks the same way", async () => {
    await server.client.store.putItem(["graph", "notes"], "a", { text: "remember the dentist appointment" });
    await server.client.store.putItem(["graph", "notes"], "b", { text: "buy milk and bread" });
    const thread = await server.client.threads.create();
    const result = (await server.client.runs.wait(thread.thread_id, "memory", {
      input: { search: { namespacePrefix: ["graph"], query: "bread and milk" } },
    })) as { found: string[] };
    expect(result.found[0]).toBe("b");
  });

  it("GraphQL storeItems with a query: scores, and totalCount counts the items that have embeddings", async () => {
    await server.client.store.putItem(["gqlsem"], "tea", { text: "green tea" });
    await server.client.store.putItem(["gqlsem"], "coffee", { text: "black coffee" });
    await server.client.store.putItem(["gqlsem"], "plain", { text: "green tea" }, { index: false });
    const { storeItems } = await executeOk(server, SearchStoreItemsDocument, { namespacePrefix: ["gqlsem"], query: "green tea" });
    expect(storeItems.edges.map((edge) => edge.node.key)).toEqual(["tea", "coffee"]);
    expect(storeItems.edges[0]!.node.score).toBeGreaterThan(storeItems.edges[1]!.node.score!);
    expect(storeItems.totalCount).toBe(2);
  });

  it("re-putting an item re-embeds it; index false drops its vectors", async () => {
    await server.client.store.putItem(["reembed"], "k", { text: "cats" });
    await server.client.store.putItem(["reembed"], "k", { text: "dogs" });
    let { items } = await server.client.store.searchItems(["reembed"], { query: "dogs" });
    // The whole value is embedded ({"text":"dogs"}: the words text and dogs), so 1/√2; "cats" gave 0.
    expect((items[0] as { score?: number }).score).toBeCloseTo(Math.SQRT1_2, 5);
    await server.client.store.putItem(["reembed"], "k", { text: "dogs" }, { index: false });
    ({ items } = await server.client.store.searchItems(["reembed"], { query: "dogs" }));
    expect(items).toEqual([]);
  });
});

describe("an embeddings provider that fails", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ configPath: path.join(fixtures, "store-openai.langgraph.json") });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("fails the put with 503 naming the provider, and writes nothing", async () => {
    const response = await server.request("/store/items", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ namespace: ["down"], key: "k", value: { text: "hello" } }),
    });
    expect(response.status).toBe(503);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/openai:text-embedding-3-small/);
    expect(await server.client.store.getItem(["down"], "k")).toBeNull();
    const search = await server.request("/store/items/search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ namespace_prefix: ["down"], query: "hello" }),
    });
    expect(search.status).toBe(503);
  });

  it("still stores items that ask not to be indexed", async () => {
    await server.client.store.putItem(["down"], "plain", { text: "hello" }, { index: false });
    expect(await server.client.store.getItem(["down"], "plain")).toMatchObject({ value: { text: "hello" } });
  });
});
