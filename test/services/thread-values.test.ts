import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// A functional-API graph leaves a string as its thread's state: Thread.values is any JSON value,
// and every way of reading or keeping a thread carries it as it is.
const DEPLOYMENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/functional.langgraph.json");

let server: TestServer;
let threadId: string;
let runId: string;
beforeAll(async () => {
  server = await startTestServer({ configPath: DEPLOYMENT, roles: { api: true, worker: true, cron: false } });
  const thread = await server.client.threads.create({ metadata: { kind: "functional" } });
  threadId = thread.thread_id;
  const run = await server.client.runs.create(threadId, "functional", { input: { text: "hi" } });
  runId = run.run_id;
  await server.client.runs.join(threadId, runId);
});
afterAll(async () => {
  await server?.close();
});

async function graphqlValues(id: string): Promise<unknown> {
  const response = await server.request("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "query ($id: ID!) { thread(threadId: $id) { values } }", variables: { id } }),
  });
  return response.json();
}

describe("a thread whose values are not an object", () => {
  it("REST answers the string the graph left, for get, search and join", async () => {
    expect((await server.client.threads.get(threadId)).values).toBe("echo: hi");
    const found = await server.client.threads.search({ metadata: { kind: "functional" } });
    expect(found.map((thread) => thread.values)).toEqual(["echo: hi"]);
    const joined = await server.request(`/threads/${threadId}/runs/${runId}/join`);
    expect(await joined.json()).toBe("echo: hi");
  });

  it("GraphQL answers it as JSON (a JSONObject field would fail to serialize it)", async () => {
    expect(await graphqlValues(threadId)).toEqual({ data: { thread: { values: "echo: hi" } } });
  });

  it("a metadata PATCH and a copy keep the string as it is (not re-encoded, not dropped)", async () => {
    const patched = await server.client.threads.update(threadId, { metadata: { patched: true } });
    expect(patched.values).toBe("echo: hi");
    expect((await server.client.threads.get(threadId)).values).toBe("echo: hi");
    const copy = await server.client.threads.copy(threadId);
    expect((await server.client.threads.get(copy.thread_id)).values).toBe("echo: hi");
  });
});
