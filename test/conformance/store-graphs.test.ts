import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

const STORE_DEPLOYMENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/store.langgraph.json");

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ configPath: STORE_DEPLOYMENT });
});

afterAll(async () => {
  await server?.close();
});

async function runMemory(input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const thread = await server.client.threads.create();
  return (await server.client.runs.wait(thread.thread_id, "memory", { input })) as Record<string, unknown>;
}

describe("one store: graphs and the API", () => {
  it("what a graph puts through config.store, the API reads and searches", async () => {
    await runMemory({ remember: { namespace: ["users", "ada"], key: "likes", value: { food: "pasta" } } });
    const item = await server.client.store.getItem(["users", "ada"], "likes");
    expect(item).toMatchObject({ namespace: ["users", "ada"], key: "likes", value: { food: "pasta" } });
    const { items } = await server.client.store.searchItems(["users"], { filter: { food: "pasta" } });
    expect(items.map((found) => found.key)).toEqual(["likes"]);
    expect((await server.client.store.listNamespaces({ prefix: ["users"] })).namespaces).toEqual([["users", "ada"]]);
  });

  it("what the API puts, a graph gets and searches; what the API deletes, the graph no longer sees", async () => {
    await server.client.store.putItem(["users", "bob"], "profile", { name: "Bob" });
    await server.client.store.putItem(["users", "bob"], "extra", { name: "B" });
    const read = await runMemory({ recall: { namespace: ["users", "bob"], key: "profile" }, search: { namespacePrefix: ["users", "bob"] } });
    expect(read.recalled).toEqual({ name: "Bob" });
    expect((read.found as string[]).sort()).toEqual(["extra", "profile"]);
    await server.client.store.deleteItem(["users", "bob"], "profile");
    expect((await runMemory({ recall: { namespace: ["users", "bob"], key: "profile" } })).recalled).toBeNull();
  });
});
