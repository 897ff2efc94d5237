import path from "node:path";
import { getNamedType, isObjectType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGraphqlServer } from "../../src/graphql/yoga.js";
import { schema } from "../../src/graphql/schema.js";
import { createHttpApp } from "../../src/http/http-app.js";
import { countRows as countTableRows } from "../helpers/sql.js";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";
import { GRAPHQL_CASES, REST_CASES, type Fixture } from "./auth-coverage-cases.js";

// Every route of the router and every GraphQL root field, against a deployment whose handlers
// refuse everything with 418 (test/fixtures/auth/deny-all.ts): each must authenticate (401
// without a token) and then either ask authorization (418) or be an operator's resource (403),
// and change nothing. The case tables must list exactly what the router and the schema expose,
// so a new route or field without a case (and so without a checked decision) fails here.
const DENY_ALL = path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "auth/deny-all.langgraph.json");
const OPERATOR_KEY = "operator-key";
/** Routes that touch no resource: health and readiness, server info, the console's static files, the tracing API's info. */
const OPEN_ROUTES = new Set(["GET /ok", "GET /ready", "GET /info", "GET /", "GET /console", "GET /console/*", "GET /tracing/info"]);

let server: TestServer;
let fixture: Fixture;

beforeAll(async () => {
  server = await startTestServer({ configPath: DENY_ALL, apiKeys: [OPERATOR_KEY] });
  // The operator's key bypasses the handlers (a trusted backend): it sets the scene.
  const assistant = await server.client.assistants.create({ graphId: "echo" });
  const thread = await server.client.threads.create();
  const run = await server.client.runs.create(thread.thread_id, "echo", { input: { messages: [] } });
  await server.client.runs.join(thread.thread_id, run.run_id);
  const cron = await server.client.crons.create("echo", { schedule: "0 0 1 1 *", input: { messages: [] } });
  await server.client.store.putItem(["shared"], "item", { text: "hello" });
  fixture = { assistant, thread, run, cron };
});
afterAll(async () => {
  await server?.close();
});

const COUNTED_TABLES = ["assistants", "assistant_versions", "threads", "runs", "crons", "checkpoints", "trace_runs", "trace_feedback", "store_items"];

function countRows(): Promise<Record<string, number>> {
  return countTableRows(server.database, COUNTED_TABLES);
}

function send(route: string, pathname: string, body: unknown, token: string | null, multipart = false): Promise<Response> {
  const method = route.split(" ")[0]!;
  const boundary = "auth-coverage";
  const contentType = multipart ? `multipart/form-data; boundary=${boundary}` : "application/json";
  const text = multipart
    ? `--${boundary}\r\nContent-Disposition: form-data; name="post.${(body as { id: string }).id}"\r\n` +
      `Content-Type: application/json\r\n\r\n${JSON.stringify(body)}\r\n--${boundary}--\r\n`
    : JSON.stringify(body);
  return fetch(`${server.url}${pathname}`, {
    method,
    headers: { "content-type": contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : text,
  });
}

describe("REST", () => {
  it("lets an API key through as an operator beside custom auth, and says so in /info", async () => {
    const info = (await (await fetch(`${server.url}/info`)).json()) as { hangar: { auth: string } };
    expect(info.hangar.auth).toBe("api-key+custom");
    expect((await server.client.threads.get(fixture.thread.thread_id)).thread_id).toBe(fixture.thread.thread_id);
    const wrongKey = await fetch(`${server.url}/threads/${fixture.thread.thread_id}`, { headers: { "x-api-key": "wrong" } });
    expect(wrongKey.status).toBe(401);
  });

  it("has a case for every route of the router", () => {
    const app = createHttpApp(server.hangar.runtime, createGraphqlServer(server.hangar.runtime));
    const routes = new Set(app.routes.filter((route) => route.method !== "ALL").map((route) => `${route.method} ${route.path}`));
    const covered = [...REST_CASES.map((entry) => entry.route), ...OPEN_ROUTES, "GET /graphql", "POST /graphql", "OPTIONS /graphql"];
    expect([...routes].sort()).toEqual([...new Set(covered)].sort());
  });

  it("authenticates every route, asks authorization on each, and changes nothing", async () => {
    const before = await countRows();
    const wrong: string[] = [];
    for (const entry of REST_CASES) {
      const body = entry.body?.(fixture);
      const anonymous = await send(entry.route, entry.path(fixture), body, null, entry.multipart);
      if (anonymous.status !== 401) wrong.push(`${entry.route} without a token: ${anonymous.status}`);
      const refused = await send(entry.route, entry.path(fixture), body, "somebody", entry.multipart);
      const expected = entry.refusedBy === "operator" ? 403 : 418;
      if (refused.status !== expected) wrong.push(`${entry.route} as a user: ${refused.status} ${await refused.text()}`);
    }
    expect(wrong).toEqual([]);
    expect(await countRows()).toEqual(before);
  });

  it("answers a handler's unexpected error with 500 JSON and no internals, and an unusable filter with 500 naming the handler", async () => {
    const buggy = await send("POST /threads/search", "/threads/search", {}, "buggy");
    expect(buggy.status).toBe(500);
    const buggyBody = await buggy.text();
    expect(JSON.parse(buggyBody)).toEqual({ detail: expect.stringContaining('auth handler "*"') });
    expect(buggyBody).not.toContain("secret internals");

    const before = await countRows();
    const badFilter = await send("POST /threads", "/threads", { metadata: {} }, "bad-filter");
    expect(badFilter.status).toBe(500);
    expect(((await badFilter.json()) as { detail: string }).detail).toMatch(/auth handler "\*".*unsupported filter for "owner"/);
    expect(await countRows()).toEqual(before);
  });
});

describe("GraphQL", () => {
  it("has a case for every root field of the schema", () => {
    const fields: string[] = [];
    for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
      for (const name of Object.keys(root?.getFields() ?? {})) fields.push(`${root!.name}.${name}`);
    }
    expect(fields.sort()).toEqual(GRAPHQL_CASES.map((entry) => entry.field).sort());
    // Sanity: the schema's roots are object types with fields (guards against a vacuous table).
    expect(isObjectType(getNamedType(schema.getQueryType()!))).toBe(true);
  });

  it("authenticates /graphql and refuses every root field through authorization (or as an operator's)", async () => {
    const anonymous = await send("POST /graphql", "/graphql", { query: "{ viewer { kind } }" }, null);
    expect(anonymous.status).toBe(401);
    const before = await countRows();
    const wrong: string[] = [];
    for (const entry of GRAPHQL_CASES) {
      const response = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: entry.field.startsWith("Subscription.") ? "text/event-stream" : "application/graphql-response+json",
          authorization: "Bearer somebody",
        },
        body: JSON.stringify({ query: entry.query, variables: entry.variables?.(fixture) ?? {} }),
      });
      const text = await response.text();
      const expected = entry.refusedBy === "open" ? null : entry.refusedBy === "operator" ? /are for operators/ : /refused /;
      if (expected === null ? text.includes('"errors"') : !(expected.test(text) && text.includes('"FORBIDDEN"'))) {
        wrong.push(`${entry.field}: ${text.slice(0, 300)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await countRows()).toEqual(before);
  });
});
