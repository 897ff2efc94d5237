import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import {
  DeleteStoreItemDocument,
  GetStoreItemDocument,
  GetStoreItemNodeDocument,
  ListStoreNamespacesDocument,
  PutStoreItemDocument,
  SearchStoreItemsDocument,
} from "./generated/graphql.js";
import { errorCode, executeOk, executeOperation } from "./helpers.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

describe("the Store through GraphQL", () => {
  it("puts an item (with a TTL) and reads it back by address, by node id and through REST", async () => {
    const { putStoreItem } = await executeOk(server, PutStoreItemDocument, {
      input: { namespace: ["gql", "u1"], key: "note", value: { text: "hello" }, ttl: 30 },
    });
    expect(putStoreItem.storeItem).toMatchObject({ namespace: ["gql", "u1"], key: "note", value: { text: "hello" }, score: null });
    const expiresIn = Date.parse(putStoreItem.storeItem.expiresAt!) - Date.now();
    expect(expiresIn).toBeGreaterThan(29 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(30 * 60_000);

    const { storeItem } = await executeOk(server, GetStoreItemDocument, { namespace: ["gql", "u1"], key: "note" });
    expect(storeItem).toMatchObject({ id: putStoreItem.storeItem.id, value: { text: "hello" } });
    const { node } = await executeOk(server, GetStoreItemNodeDocument, { id: putStoreItem.storeItem.id });
    expect(node).toEqual({ __typename: "StoreItem", namespace: ["gql", "u1"], key: "note", value: { text: "hello" } });
    expect(await server.client.store.getItem(["gql", "u1"], "note")).toMatchObject({ value: { text: "hello" } });
  });

  it("searches with a filter and pages through a connection without overlap", async () => {
    for (let index = 0; index < 5; index++) {
      await server.client.store.putItem(["gql", "paged"], `k${index}`, { index, even: index % 2 === 0 });
    }
    const keys: string[] = [];
    let after: string | null | undefined;
    for (;;) {
      const { storeItems } = await executeOk(server, SearchStoreItemsDocument, { namespacePrefix: ["gql", "paged"], first: 2, after });
      expect(storeItems.totalCount).toBe(5);
      keys.push(...storeItems.edges.map((edge) => edge.node.key));
      if (!storeItems.pageInfo.hasNextPage) break;
      after = storeItems.pageInfo.endCursor;
    }
    expect(keys.sort()).toEqual(["k0", "k1", "k2", "k3", "k4"]);
    const { storeItems } = await executeOk(server, SearchStoreItemsDocument, {
      namespacePrefix: ["gql"],
      filter: { even: true, index: { $gt: 0 } },
    });
    expect(storeItems.edges.map((edge) => edge.node.key)).toEqual(["k4", "k2"]);
    expect(storeItems.totalCount).toBe(2);
  });

  it("lists namespaces with prefix, suffix and maxDepth", async () => {
    await server.client.store.putItem(["gqlns", "a", "x"], "k", {});
    await server.client.store.putItem(["gqlns", "b", "x"], "k", {});
    await server.client.store.putItem(["gqlns", "b", "y"], "k", {});
    const list = async (variables: { prefix?: string[]; suffix?: string[]; maxDepth?: number }) =>
      (await executeOk(server, ListStoreNamespacesDocument, variables)).storeNamespaces;
    expect((await list({ prefix: ["gqlns"], suffix: ["x"] })).edges.map((edge) => edge.node.path)).toEqual(["gqlns.a.x", "gqlns.b.x"]);
    const shallow = await list({ prefix: ["gqlns"], maxDepth: 2 });
    expect(shallow.edges.map((edge) => edge.node.labels)).toEqual([["gqlns", "a"], ["gqlns", "b"]]);
    expect(shallow.totalCount).toBe(2);
  });

  it("deletes an item; the payload names it", async () => {
    await server.client.store.putItem(["gql", "del"], "gone", { v: 1 });
    const { deleteStoreItem } = await executeOk(server, DeleteStoreItemDocument, { input: { namespace: ["gql", "del"], key: "gone" } });
    expect(deleteStoreItem).toMatchObject({ namespace: ["gql", "del"], key: "gone" });
    expect((await executeOk(server, GetStoreItemDocument, { namespace: ["gql", "del"], key: "gone" })).storeItem).toBeNull();
  });

  it("refuses bad input with INVALID_INPUT naming the field, storing nothing", async () => {
    const dotted = await executeOperation(server, PutStoreItemDocument, { input: { namespace: ["a.b"], key: "k", value: {} } });
    expect(errorCode(dotted)).toBe("INVALID_INPUT");
    expect(dotted.errors?.[0]?.message).toMatch(/namespace\[0\]/);
    const query = await executeOperation(server, SearchStoreItemsDocument, { namespacePrefix: ["gql"], query: "hello" });
    expect(errorCode(query)).toBe("INVALID_INPUT");
    expect(query.errors?.[0]?.message).toMatch(/store\.index/);
    const badFilter = await executeOperation(server, SearchStoreItemsDocument, { filter: { x: { $like: "a" } } });
    expect(errorCode(badFilter)).toBe("INVALID_INPUT");
    expect((await server.client.store.searchItems([], { limit: 100 })).items.some((item) => item.namespace[0] === "a.b")).toBe(false);
  });
});
