import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Assistant, Run, Thread } from "@langchain/langgraph-sdk";
import { getNamedType, isInputObjectType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGraphqlServer } from "../../src/graphql/yoga.js";
import { schema } from "../../src/graphql/schema.js";
import { createHttpApp } from "../../src/http/http-app.js";
import { countRows as countTableRows } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

/**
 * The storable-text rule (src/domain/storable-text.ts): a NUL (\u0000) or an unpaired surrogate
 * (\ud800) in any input is refused with 422 naming the field, on every REST write route, every
 * GraphQL mutation and every /tracing ingest route, and nothing is written; a graph whose output
 * holds one fails its run with a message naming where, and does not hang.
 *
 * The REST table is checked against the router itself (`app.routes`): a new write route fails
 * this test until it has a row here.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const UNSTORABLE = { nul: "before\u0000after", surrogate: "before\ud800after" } as const;
/** In a URL a lone surrogate can only be sent as its (invalid) UTF-8 bytes. */
const UNSTORABLE_IN_URL = { nul: "%00", surrogate: "%ED%A0%80" } as const;

interface Fixture {
  assistant: Assistant;
  thread: Thread;
  run: Run;
  cron: { cron_id: string };
}

type Body = (bad: string, f: Fixture) => unknown;

interface RestCase {
  /** The route as Hono lists it: `METHOD /path/:param`. */
  route: string;
  /** Route params filled in from the fixture. */
  path: (f: Fixture) => string;
  /** The request's JSON body holding the bad text; absent: the bad text goes into the URL. */
  body?: Body;
  /** `multipart`: the body is sent as a LangSmith multipart ingest request. */
  multipart?: true;
}

const runInput = (bad: string) => ({ messages: [{ role: "user", content: bad }] });
const traceRun = (bad: string) => ({
  id: randomUUID(),
  name: bad,
  run_type: "chain",
  inputs: { text: bad },
  start_time: new Date().toISOString(),
});

const REST_CASES: RestCase[] = [
  { route: "POST /assistants", path: () => "/assistants", body: (bad) => ({ graph_id: "echo", name: bad, metadata: { note: bad } }) },
  { route: "POST /assistants/search", path: () => "/assistants/search", body: (bad) => ({ metadata: { note: bad } }) },
  { route: "POST /assistants/count", path: () => "/assistants/count", body: (bad) => ({ metadata: { note: bad } }) },
  { route: "PATCH /assistants/:assistant_id", path: (f) => `/assistants/${f.assistant.assistant_id}`, body: (bad) => ({ metadata: { [bad]: 1 } }) },
  { route: "DELETE /assistants/:assistant_id", path: (f) => `/assistants/${f.assistant.assistant_id}` },
  { route: "POST /assistants/:assistant_id/versions", path: (f) => `/assistants/${f.assistant.assistant_id}/versions`, body: (bad) => ({ metadata: { note: bad } }) },
  { route: "POST /assistants/:assistant_id/latest", path: (f) => `/assistants/${f.assistant.assistant_id}/latest`, body: (bad) => ({ version: 1, note: bad }) },
  { route: "POST /threads/:thread_id/state/checkpoint", path: (f) => `/threads/${f.thread.thread_id}/state/checkpoint`, body: (bad) => ({ checkpoint: { checkpoint_id: bad } }) },
  { route: "POST /threads/:thread_id/state", path: (f) => `/threads/${f.thread.thread_id}/state`, body: (bad) => ({ values: runInput(bad) }) },
  { route: "PATCH /threads/:thread_id/state", path: (f) => `/threads/${f.thread.thread_id}/state`, body: (bad) => ({ metadata: { note: bad } }) },
  { route: "POST /threads/:thread_id/history", path: (f) => `/threads/${f.thread.thread_id}/history`, body: (bad) => ({ metadata: { note: bad } }) },
  {
    route: "POST /threads/:thread_id/commands",
    path: (f) => `/threads/${f.thread.thread_id}/commands`,
    body: (bad) => ({ id: 1, method: "run.start", params: { assistant_id: "echo", input: { messages: [{ role: "user", content: bad }] } } }),
  },
  {
    route: "POST /threads/:thread_id/stream/events",
    path: (f) => `/threads/${f.thread.thread_id}/stream/events`,
    body: (bad) => ({ channels: ["values"], namespaces: [[bad]] }),
  },
  ...["", "/stream", "/wait"].map((suffix) => ({
    route: `POST /threads/:thread_id/runs${suffix}`,
    path: (f: Fixture) => `/threads/${f.thread.thread_id}/runs${suffix}`,
    body: (bad: string) => ({ assistant_id: "echo", input: runInput(bad), metadata: { note: bad } }),
  })),
  { route: "DELETE /threads/:thread_id/runs/:run_id", path: (f) => `/threads/${f.thread.thread_id}/runs/${f.run.run_id}` },
  { route: "POST /threads/:thread_id/runs/:run_id/cancel", path: (f) => `/threads/${f.thread.thread_id}/runs/${f.run.run_id}/cancel` },
  { route: "POST /threads/:thread_id/runs/crons", path: (f) => `/threads/${f.thread.thread_id}/runs/crons`, body: (bad) => ({ assistant_id: "echo", schedule: "0 0 * * *", input: runInput(bad) }) },
  { route: "POST /threads", path: () => "/threads", body: (bad) => ({ metadata: { note: bad } }) },
  { route: "POST /threads/search", path: () => "/threads/search", body: (bad) => ({ metadata: { note: bad }, values: { text: bad } }) },
  { route: "POST /threads/count", path: () => "/threads/count", body: (bad) => ({ metadata: { note: bad } }) },
  { route: "PATCH /threads/:thread_id", path: (f) => `/threads/${f.thread.thread_id}`, body: (bad) => ({ metadata: { note: bad } }) },
  { route: "DELETE /threads/:thread_id", path: (f) => `/threads/${f.thread.thread_id}` },
  { route: "POST /threads/prune", path: () => "/threads/prune", body: (bad) => ({ thread_ids: [bad], strategy: "delete" }) },
  { route: "POST /threads/:thread_id/copy", path: (f) => `/threads/${f.thread.thread_id}/copy` },
  { route: "POST /runs/crons", path: () => "/runs/crons", body: (bad) => ({ assistant_id: "echo", schedule: "0 0 * * *", input: runInput(bad), metadata: { note: bad } }) },
  { route: "POST /runs/crons/search", path: () => "/runs/crons/search", body: (bad) => ({ assistant_id: bad }) },
  { route: "POST /runs/crons/count", path: () => "/runs/crons/count", body: (bad) => ({ assistant_id: bad }) },
  { route: "PATCH /runs/crons/:cron_id", path: (f) => `/runs/crons/${f.cron.cron_id}`, body: (bad) => ({ input: runInput(bad) }) },
  { route: "DELETE /runs/crons/:cron_id", path: (f) => `/runs/crons/${f.cron.cron_id}` },
  ...["", "/stream", "/wait"].map((suffix) => ({
    route: `POST /runs${suffix}`,
    path: () => `/runs${suffix}`,
    body: (bad: string) => ({ assistant_id: "echo", input: runInput(bad) }),
  })),
  { route: "POST /runs/batch", path: () => "/runs/batch", body: (bad) => [{ assistant_id: "echo", input: runInput(bad) }] },
  { route: "POST /runs/cancel", path: () => "/runs/cancel", body: (bad, f) => ({ thread_id: f.thread.thread_id, run_ids: [f.run.run_id], action: bad }) },
  { route: "POST /tracing/runs", path: () => "/tracing/runs", body: (bad) => traceRun(bad) },
  { route: "POST /tracing/runs/batch", path: () => "/tracing/runs/batch", body: (bad) => ({ post: [traceRun(bad)] }) },
  { route: "POST /tracing/runs/multipart", path: () => "/tracing/runs/multipart", body: (bad) => traceRun(bad), multipart: true },
  { route: "PATCH /tracing/runs/:run_id", path: () => `/tracing/runs/${randomUUID()}`, body: (bad) => ({ outputs: { text: bad } }) },
  { route: "POST /tracing/runs/query", path: () => "/tracing/runs/query", body: (bad) => ({ metadata: { note: bad } }) },
  { route: "POST /tracing/feedback", path: () => "/tracing/feedback", body: (bad) => ({ run_id: randomUUID(), key: bad, comment: bad }) },
  { route: "PATCH /tracing/feedback/:feedback_id", path: () => `/tracing/feedback/${randomUUID()}`, body: (bad) => ({ comment: bad, value: { note: bad } }) },
  { route: "DELETE /tracing/feedback/:feedback_id", path: (f) => `/tracing/feedback/${f.run.run_id}` },
  { route: "POST /tracing/api/v2/runs/query", path: () => "/tracing/api/v2/runs/query", body: (bad) => ({ filter: `eq(name, "${bad}")` }) },
  { route: "PUT /store/items", path: () => "/store/items", body: (bad) => ({ namespace: ["notes", bad], key: "k", value: { text: bad } }) },
  { route: "DELETE /store/items", path: () => "/store/items", body: (bad) => ({ namespace: ["notes"], key: bad }) },
  { route: "POST /store/items/search", path: () => "/store/items/search", body: (bad) => ({ namespace_prefix: ["notes"], filter: { text: bad } }) },
  { route: "POST /store/namespaces", path: () => "/store/namespaces", body: (bad) => ({ prefix: [bad] }) },
];

const REST_PREFIXES = ["/assistants", "/threads", "/runs", "/tracing", "/store"];
/**
 * Write routes that keep such text as U+FFFD with a warning instead of refusing it: OTLP exporters
 * drop or retry a whole batch on a 4xx (test/tracing/otlp-bad-input.test.ts covers them).
 */
const KEPT_AS_REPLACEMENT = ["POST /tracing/otel/v1/traces"];
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

let server: TestServer;
let fixture: Fixture;

beforeAll(async () => {
  server = await startTestServer();
  const assistant = await server.client.assistants.create({ graphId: "echo" });
  const thread = await server.client.threads.create();
  const run = await server.client.runs.create(thread.thread_id, "echo", { input: runInput("hello") });
  await server.client.runs.join(thread.thread_id, run.run_id);
  const cron = await server.client.crons.create("echo", { schedule: "0 0 * * *", input: runInput("hi") });
  fixture = { assistant, thread, run, cron };
});
afterAll(async () => {
  await server?.close();
});

/** Rows per table: a refused request must leave every count as it was. */
const COUNTED_TABLES = ["assistants", "assistant_versions", "threads", "runs", "crons", "checkpoints", "trace_runs", "trace_feedback", "model_prices", "store_items"];

function countRows(): Promise<Record<string, number>> {
  return countTableRows(server.database, COUNTED_TABLES);
}

async function detailOf(response: Response): Promise<string> {
  const text = await response.text();
  return text ? (JSON.parse(text) as { detail: string }).detail : "(no body)";
}

function multipartRequest(run: Record<string, unknown>): RequestInit {
  const boundary = "hangar-test-boundary";
  const part = JSON.stringify(run);
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="post.${String(run.id)}"\r\nContent-Type: application/json\r\n\r\n${part}\r\n--${boundary}--\r\n`;
  return { method: "POST", headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body };
}

describe("REST: text PostgreSQL cannot store", () => {
  it("has a case for every write route of the router", () => {
    const app = createHttpApp(server.hangar.runtime, createGraphqlServer(server.hangar.runtime));
    const writeRoutes = new Set(
      app.routes
        .filter((route) => WRITE_METHODS.has(route.method) && REST_PREFIXES.some((prefix) => route.path.startsWith(prefix)))
        .map((route) => `${route.method} ${route.path}`),
    );
    expect([...writeRoutes].sort()).toEqual([...REST_CASES.map((entry) => entry.route), ...KEPT_AS_REPLACEMENT].sort());
  });

  for (const [kind, bad] of Object.entries(UNSTORABLE) as Array<[keyof typeof UNSTORABLE, string]>) {
    it(`refuses ${kind} on every write route with a 4xx and writes nothing`, async () => {
      const before = await countRows();
      const answers: Array<{ route: string; status: number; detail: string }> = [];
      for (const entry of REST_CASES) {
        const method = entry.route.split(" ")[0]!;
        let response: Response;
        if (!entry.body) {
          // The bad text as the last path segment, and as a query parameter of the real route.
          const url = entry.path(fixture);
          const inPath = await server.request(`${url.slice(0, url.lastIndexOf("/") + 1)}${UNSTORABLE_IN_URL[kind]}`, { method });
          answers.push({ route: `${entry.route} (path)`, status: inPath.status, detail: await detailOf(inPath) });
          // %ED%A0%80 in a query is not decoded (invalid UTF-8), so it is storable text: only
          // NUL makes the real route's request one to refuse.
          if (kind !== "nul") continue;
          response = await server.request(`${url}?note=${UNSTORABLE_IN_URL[kind]}`, { method });
        } else if (entry.multipart) {
          response = await server.request(entry.path(fixture), multipartRequest(entry.body(bad, fixture) as Record<string, unknown>));
        } else {
          response = await server.request(entry.path(fixture), {
            method,
            headers: { "content-type": "application/json" },
            body: JSON.stringify(entry.body(bad, fixture)),
          });
        }
        answers.push({ route: entry.route, status: response.status, detail: await detailOf(response) });
      }
      for (const answer of answers) {
        expect(answer.status, `${answer.route}: ${answer.detail}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${answer.route}: ${answer.detail}`).toBeLessThan(500);
      }
      // Where the text reached the body or the query, the answer is this rule's, naming the field.
      const inBody = answers.filter((answer) => REST_CASES.find((entry) => entry.route === answer.route)?.body);
      for (const answer of inBody) {
        expect(answer, answer.route).toMatchObject({ status: 422, detail: expect.stringMatching(/^body[.[ ].*cannot be stored$/) });
      }
      expect(await countRows()).toEqual(before);
    });
  }

  it("names the field: a JSON path into the body or the query parameter", async () => {
    const response = await server.request("/threads", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ metadata: { tags: ["ok", UNSTORABLE.surrogate] } }),
    });
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toBe("body.metadata.tags[1]: text contains an unpaired UTF-16 surrogate, which cannot be stored");
    const inQuery = await server.request(`/threads/${fixture.thread.thread_id}/runs?status=%00`);
    expect(inQuery.status).toBe(422);
    expect((await inQuery.json()).detail).toBe("query.status: text contains a NUL character (\\u0000), which cannot be stored");
  });

  it("still accepts a surrogate pair (an emoji) and stores it as it is", async () => {
    const thread = await server.client.threads.create({ metadata: { note: "rocket \ud83d\ude80" } });
    expect((await server.client.threads.get(thread.thread_id)).metadata).toMatchObject({ note: "rocket \ud83d\ude80" });
  });
});

/** Input values per mutation, with the bad text where a client could put it. */
const MUTATION_INPUTS: Record<string, (bad: string, f: Fixture) => Record<string, unknown>> = {
  cancelRun: (bad) => ({ runId: bad }),
  continueThread: (bad, f) => ({ threadId: f.thread.thread_id, assistantId: f.assistant.assistant_id, values: runInput(bad), asNode: "echo" }),
  copyThread: (bad) => ({ threadId: bad }),
  createAssistant: (bad) => ({ graphId: "echo", name: bad, metadata: { note: bad } }),
  createCron: (bad, f) => ({ assistantId: f.assistant.assistant_id, schedule: "0 0 * * *", input: runInput(bad) }),
  createModelPrice: (bad) => ({ modelName: bad, matchPattern: "^x$", inputPrice: "1", outputPrice: "1" }),
  createRun: (bad, f) => ({ assistantId: f.assistant.assistant_id, threadId: f.thread.thread_id, input: runInput(bad) }),
  createThread: (bad) => ({ metadata: { note: bad } }),
  deleteAssistant: (bad) => ({ assistantId: bad }),
  deleteCron: (bad) => ({ cronId: bad }),
  deleteModelPrice: (bad) => ({ modelPriceId: bad }),
  createTraceFeedback: (bad) => ({ traceRunId: randomUUID(), key: bad, comment: bad, value: { note: bad } }),
  deleteTraceFeedback: (bad) => ({ feedbackId: bad }),
  deleteStoreItem: (bad) => ({ namespace: ["notes"], key: bad }),
  deleteThread: (bad) => ({ threadId: bad }),
  putStoreItem: (bad) => ({ namespace: ["notes"], key: "k", value: { text: bad } }),
  repriceTraces: (bad) => ({ from: "2020-01-01T00:00:00Z", to: "2030-01-01T00:00:00Z", model: bad }),
  setAssistantVersion: (bad, f) => ({ assistantId: f.assistant.assistant_id, version: 1, note: bad }),
  updateAssistant: (bad, f) => ({ assistantId: f.assistant.assistant_id, description: bad }),
  updateCron: (bad, f) => ({ cronId: f.cron.cron_id, input: runInput(bad) }),
  updateModelPrice: (bad) => ({ modelPriceId: randomUUID(), provider: bad }),
  updateTraceFeedback: (bad) => ({ feedbackId: randomUUID(), comment: bad, correction: { text: bad } }),
  updateThread: (bad, f) => ({ threadId: f.thread.thread_id, metadata: { note: bad } }),
  updateThreadState: (bad, f) => ({ threadId: f.thread.thread_id, values: runInput(bad) }),
};

async function graphql(query: string, variables: Record<string, unknown> = {}) {
  const response = await server.request("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/graphql-response+json" },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as { data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }> } };
}

describe("GraphQL: text PostgreSQL cannot store", () => {
  const mutations = schema.getMutationType()!.getFields();

  it("has a case for every mutation of the schema", () => {
    expect(Object.keys(MUTATION_INPUTS).sort()).toEqual(Object.keys(mutations).sort());
  });

  for (const [kind, bad] of Object.entries(UNSTORABLE)) {
    it(`refuses ${kind} in the variables of every mutation with INVALID_INPUT and writes nothing`, async () => {
      const before = await countRows();
      for (const [name, field] of Object.entries(mutations)) {
        const inputType = getNamedType(field.args[0]!.type);
        expect(isInputObjectType(inputType)).toBe(true);
        const query = `mutation Bad($input: ${inputType.name}!) { ${name}(input: $input) { __typename } }`;
        const { status, body } = await graphql(query, { input: MUTATION_INPUTS[name]!(bad, fixture) });
        expect({ name, status, code: body.errors?.[0]?.extensions?.code }).toEqual({ name, status: 400, code: "INVALID_INPUT" });
        expect(body.errors?.[0]?.message).toMatch(/^variables\.input\..*cannot be stored$/);
      }
      expect(await countRows()).toEqual(before);
    });
  }

  it("refuses a NUL written as a string literal in the document, naming the argument", async () => {
    const { status, body } = await graphql('mutation { createThread(input: { metadata: { note: "a\\u0000b" } }) { __typename } }');
    expect(status).toBe(400);
    expect(body.errors?.[0]).toMatchObject({
      message: "argument createThread.input.metadata.note: text contains a NUL character (\\u0000), which cannot be stored",
      extensions: { code: "INVALID_INPUT" },
    });
  });
});

describe("graph output PostgreSQL cannot store", () => {
  let outputServer: TestServer;
  beforeAll(async () => {
    outputServer = await startTestServer({ configPath: path.resolve(here, "../fixtures/unstorable/langgraph.json") });
  });
  afterAll(async () => {
    await outputServer?.close();
  });

  it("stores a clean output as usual", async () => {
    const thread = await outputServer.client.threads.create();
    await outputServer.client.runs.wait(thread.thread_id, "unstorable", { input: { kind: "clean" } });
    const [run] = await outputServer.client.runs.list(thread.thread_id);
    expect(run!.status).toBe("success");
  });

  for (const [kind, problem] of [
    ["nul", "a NUL character"],
    ["surrogate", "an unpaired UTF-16 surrogate"],
  ] as const) {
    it(`fails the run (not hangs) when the output holds ${kind}, naming where`, async () => {
      const thread = await outputServer.client.threads.create();
      const run = await outputServer.client.runs.create(thread.thread_id, "unstorable", { input: { kind } });
      await outputServer.client.runs.join(thread.thread_id, run.run_id);
      const settled = await outputServer.request(`/threads/${thread.thread_id}/runs/${run.run_id}`).then((r) => r.json());
      expect(settled.status).toBe("error");
      const stored = await outputServer.client.threads.get(thread.thread_id);
      expect(stored.status).toBe("error");
      expect(JSON.stringify(stored.error)).toContain(`output.values.text: text contains ${problem}`);
      // The checkpoint keeps the output losslessly: the thread's state reads it back as it was.
      const state = await outputServer.client.threads.getState(thread.thread_id);
      expect((state.values as { text: string }).text).toBe(kind === "nul" ? UNSTORABLE.nul : UNSTORABLE.surrogate);
    });
  }
});
