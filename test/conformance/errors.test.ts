import type { Assistant, Thread } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

/**
 * Every REST endpoint refuses bad input with the right status and a `{"detail": ...}` JSON body,
 * and a refused request changes nothing: each case compares a snapshot of the database's
 * visible state (counts, a fixture assistant with its versions, a fixture thread) before and after.
 */

const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

interface Fixture {
  assistant: Assistant;
  thread: Thread;
}

interface ErrorCase {
  name: string;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: (f: Fixture) => string;
  /** A string is sent as is (malformed JSON); anything else as JSON; a function gets the fixture. */
  body?: unknown;
  status: number;
  detail: RegExp;
}

const cases: ErrorCase[] = [
  // POST /assistants
  { name: "create: unknown graph lists the deployed ones", method: "POST", path: () => "/assistants", body: { graph_id: "nope" }, status: 422, detail: /nope.*agent, echo/ },
  { name: "create: existing assistant_id", method: "POST", path: () => "/assistants", body: (f: Fixture) => ({ graph_id: "echo", assistant_id: f.assistant.assistant_id }), status: 409, detail: /already exists/ },
  { name: "create: if_exists raise on existing id", method: "POST", path: () => "/assistants", body: (f: Fixture) => ({ graph_id: "agent", assistant_id: f.assistant.assistant_id, if_exists: "raise" }), status: 409, detail: /already exists/ },
  { name: "create: non-UUID assistant_id", method: "POST", path: () => "/assistants", body: { graph_id: "echo", assistant_id: "abc" }, status: 422, detail: /assistant_id.*UUID/ },
  { name: "create: metadata of the wrong type", method: "POST", path: () => "/assistants", body: { graph_id: "echo", metadata: "x" }, status: 422, detail: /metadata/ },
  { name: "create: missing graph_id", method: "POST", path: () => "/assistants", body: { name: "n" }, status: 422, detail: /graph_id/ },
  { name: "create: unknown if_exists", method: "POST", path: () => "/assistants", body: { graph_id: "echo", if_exists: "replace" }, status: 422, detail: /if_exists/ },
  { name: "create: malformed JSON", method: "POST", path: () => "/assistants", body: "{nope", status: 422, detail: /not valid JSON/ },
  // GET /assistants/{id}
  { name: "get: unknown assistant", method: "GET", path: () => `/assistants/${UNKNOWN_ID}`, status: 404, detail: new RegExp(UNKNOWN_ID) },
  { name: "get: neither a UUID nor a graph", method: "GET", path: () => "/assistants/not-a-graph", status: 404, detail: /not-a-graph/ },
  // PATCH /assistants/{id}
  { name: "update: unknown assistant", method: "PATCH", path: () => `/assistants/${UNKNOWN_ID}`, body: { context: {} }, status: 404, detail: /not found/ },
  { name: "update: context of the wrong type", method: "PATCH", path: (f) => `/assistants/${f.assistant.assistant_id}`, body: { context: [1] }, status: 422, detail: /context/ },
  { name: "update: unknown graph", method: "PATCH", path: (f) => `/assistants/${f.assistant.assistant_id}`, body: { graph_id: "nope" }, status: 422, detail: /nope.*agent, echo/ },
  { name: "update: malformed JSON", method: "PATCH", path: (f) => `/assistants/${f.assistant.assistant_id}`, body: "{nope", status: 422, detail: /not valid JSON/ },
  // DELETE /assistants/{id}
  { name: "delete: unknown assistant", method: "DELETE", path: () => `/assistants/${UNKNOWN_ID}`, status: 404, detail: /not found/ },
  { name: "delete: bad delete_threads", method: "DELETE", path: (f) => `/assistants/${f.assistant.assistant_id}?delete_threads=maybe`, status: 422, detail: /delete_threads/ },
  // POST /assistants/search
  { name: "search: limit 0", method: "POST", path: () => "/assistants/search", body: { limit: 0 }, status: 422, detail: /limit/ },
  { name: "search: limit 5000", method: "POST", path: () => "/assistants/search", body: { limit: 5000 }, status: 422, detail: /limit/ },
  { name: "search: negative offset", method: "POST", path: () => "/assistants/search", body: { offset: -1 }, status: 422, detail: /offset/ },
  { name: "search: unknown sort_by", method: "POST", path: () => "/assistants/search", body: { sort_by: "color" }, status: 422, detail: /sort_by/ },
  { name: "search: unknown sort_order", method: "POST", path: () => "/assistants/search", body: { sort_order: "up" }, status: 422, detail: /sort_order/ },
  { name: "search: unknown select field", method: "POST", path: () => "/assistants/search", body: { select: ["secret"] }, status: 422, detail: /select/ },
  // POST /assistants/count
  { name: "count: metadata of the wrong type", method: "POST", path: () => "/assistants/count", body: { metadata: 5 }, status: 422, detail: /metadata/ },
  // POST /assistants/{id}/versions
  { name: "versions: unknown assistant", method: "POST", path: () => `/assistants/${UNKNOWN_ID}/versions`, body: {}, status: 404, detail: /not found/ },
  { name: "versions: limit 0", method: "POST", path: (f) => `/assistants/${f.assistant.assistant_id}/versions`, body: { limit: 0 }, status: 422, detail: /limit/ },
  // POST /assistants/{id}/latest
  { name: "latest: unknown version", method: "POST", path: (f) => `/assistants/${f.assistant.assistant_id}/latest`, body: { version: 99 }, status: 404, detail: /version 99/ },
  { name: "latest: version as a string", method: "POST", path: (f) => `/assistants/${f.assistant.assistant_id}/latest`, body: { version: "1" }, status: 422, detail: /version/ },
  { name: "latest: unknown assistant", method: "POST", path: () => `/assistants/${UNKNOWN_ID}/latest`, body: { version: 1 }, status: 404, detail: /not found/ },
  // GET /assistants/{id}/graph, /schemas, /subgraphs
  { name: "graph: unknown assistant", method: "GET", path: () => `/assistants/${UNKNOWN_ID}/graph`, status: 404, detail: /not found/ },
  { name: "graph: bad xray", method: "GET", path: () => "/assistants/echo/graph?xray=maybe", status: 422, detail: /xray/ },
  { name: "schemas: unknown assistant", method: "GET", path: () => `/assistants/${UNKNOWN_ID}/schemas`, status: 404, detail: /not found/ },
  { name: "subgraphs: unknown assistant", method: "GET", path: () => `/assistants/${UNKNOWN_ID}/subgraphs`, status: 404, detail: /not found/ },
  { name: "subgraphs: bad recurse", method: "GET", path: () => "/assistants/echo/subgraphs/inner?recurse=maybe", status: 422, detail: /recurse/ },
  // POST /threads
  { name: "thread create: existing thread_id", method: "POST", path: () => "/threads", body: (f: Fixture) => ({ thread_id: f.thread.thread_id }), status: 409, detail: /already exists/ },
  { name: "thread create: non-UUID thread_id", method: "POST", path: () => "/threads", body: { thread_id: "abc" }, status: 422, detail: /thread_id.*UUID/ },
  { name: "thread create: metadata of the wrong type", method: "POST", path: () => "/threads", body: { metadata: ["x"] }, status: 422, detail: /metadata/ },
  { name: "thread create: supersteps", method: "POST", path: () => "/threads", body: { supersteps: [{ updates: [] }] }, status: 422, detail: /supersteps\.0\.updates/ },
  { name: "thread create: malformed JSON", method: "POST", path: () => "/threads", body: "{nope", status: 422, detail: /not valid JSON/ },
  // GET/PATCH/DELETE /threads/{id}
  { name: "thread get: unknown thread", method: "GET", path: () => `/threads/${UNKNOWN_ID}`, status: 404, detail: new RegExp(UNKNOWN_ID) },
  { name: "thread get: non-UUID id", method: "GET", path: () => "/threads/abc", status: 404, detail: /abc/ },
  { name: "thread update: unknown thread", method: "PATCH", path: () => `/threads/${UNKNOWN_ID}`, body: { metadata: {} }, status: 404, detail: /not found/ },
  { name: "thread update: metadata of the wrong type", method: "PATCH", path: (f) => `/threads/${f.thread.thread_id}`, body: { metadata: 1 }, status: 422, detail: /metadata/ },
  { name: "thread delete: unknown thread", method: "DELETE", path: () => `/threads/${UNKNOWN_ID}`, status: 404, detail: /not found/ },
  // POST /threads/search, /threads/count, /threads/{id}/copy
  { name: "thread search: limit 5000", method: "POST", path: () => "/threads/search", body: { limit: 5000 }, status: 422, detail: /limit/ },
  { name: "thread search: unknown sort_by", method: "POST", path: () => "/threads/search", body: { sort_by: "color" }, status: 422, detail: /sort_by/ },
  { name: "thread search: unknown status", method: "POST", path: () => "/threads/search", body: { status: "sleeping" }, status: 422, detail: /status/ },
  { name: "thread search: non-UUID ids", method: "POST", path: () => "/threads/search", body: { ids: ["abc"] }, status: 422, detail: /ids/ },
  { name: "thread count: values of the wrong type", method: "POST", path: () => "/threads/count", body: { values: "x" }, status: 422, detail: /values/ },
  // 409, as LangGraph's server answers a copy of a thread it cannot read (missing or another user's).
  { name: "thread copy: unknown thread", method: "POST", path: () => `/threads/${UNKNOWN_ID}/copy`, status: 409, detail: /not found/ },
  // Unknown routes
  { name: "unknown route", method: "GET", path: () => "/nowhere/at/all", status: 404, detail: /GET \/nowhere\/at\/all/ },
  { name: "unknown method on a known path", method: "PATCH", path: () => "/threads/search", body: {}, status: 404, detail: /not found|PATCH/i },
];

let server: TestServer;
let fixture: Fixture;

beforeAll(async () => {
  server = await startTestServer();
  const assistant = await server.client.assistants.create({ graphId: "echo", context: { a: 1 }, metadata: { m: 1 } });
  const thread = await server.client.threads.create({ metadata: { k: 1 } });
  fixture = { assistant, thread };
});

afterAll(async () => {
  await server?.close();
});

/** Everything a refused request could have touched. */
async function snapshot(): Promise<unknown> {
  const { assistants, threads } = server.client;
  return {
    assistants: await assistants.count(),
    threads: await threads.count(),
    assistant: await assistants.get(fixture.assistant.assistant_id),
    versions: await assistants.getVersions(fixture.assistant.assistant_id),
    thread: await threads.get(fixture.thread.thread_id),
  };
}

async function send(errorCase: ErrorCase): Promise<Response> {
  const { method } = errorCase;
  const body = typeof errorCase.body === "function" ? errorCase.body(fixture) : errorCase.body;
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.headers = { "content-type": "application/json" };
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  return server.request(errorCase.path(fixture), init);
}

describe("REST errors", () => {
  it.each(cases.map((errorCase) => [errorCase.name, errorCase] as const))("%s", async (_name, errorCase) => {
    const before = await snapshot();
    const response = await send(errorCase);
    expect(response.status).toBe(errorCase.status);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await response.json()) as { detail: string };
    expect(Object.keys(body)).toEqual(["detail"]);
    expect(body.detail).toMatch(errorCase.detail);
    expect(await snapshot()).toEqual(before);
  });

  it("surfaces as an HTTPError with the status through the SDK", async () => {
    await expect(server.client.assistants.get(UNKNOWN_ID)).rejects.toMatchObject({ status: 404 });
    await expect(server.client.assistants.setLatest(fixture.assistant.assistant_id, 42)).rejects.toMatchObject({
      status: 404,
    });
    await expect(server.client.threads.create({ threadId: fixture.thread.thread_id })).rejects.toMatchObject({
      status: 409,
    });
    await expect(server.client.assistants.search({ limit: 0 })).rejects.toMatchObject({ status: 422 });
  });

  it("if_exists do_nothing on an existing id answers 200 with the existing resource", async () => {
    const assistant = await server.client.assistants.create({
      graphId: "agent",
      assistantId: fixture.assistant.assistant_id,
      ifExists: "do_nothing",
    });
    expect(assistant).toEqual(await server.client.assistants.get(fixture.assistant.assistant_id));
    expect(assistant.graph_id).toBe("echo");
  });
});
