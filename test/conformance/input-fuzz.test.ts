import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGraphqlServer } from "../../src/graphql/yoga.js";
import { createHttpApp } from "../../src/http/http-app.js";
import { MAX_JSON_DEPTH, MAX_NAMESPACE_LABELS, MAX_STORE_KEY_BYTES } from "../../src/domain/input-bounds.js";
import {
  deepJsonText,
  FIELD_VALUES,
  forEachConcurrently,
  LONG_STRING,
  ONE_MEGABYTE_STRING,
} from "../helpers/fuzz-inputs.js";
import { countRows } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { REST_CASES, type Fixture, type RestCase } from "./auth-coverage-cases.js";

// Issue 25's fuzz, kept: every route of the router (the auth-coverage table, which must list
// exactly the router's routes) gets malformed JSON, JSON nested 5,000 levels deep, and each of
// FIELD_VALUES in each field it reads, one field at a time on an otherwise valid body; its query
// parameters and path parameters get the same. Any 5xx fails. The fields a route reads are found
// from its own 422: a body setting every known field name to a value no typed field accepts is
// refused naming each field the route's schema has.
let server: TestServer;
let fixture: Fixture;

beforeAll(async () => {
  server = await startTestServer();
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

interface Sent {
  label: string;
  status: number;
  text: string;
}

const failures: Sent[] = [];
let sentCount = 0;

async function send(label: string, method: string, pathname: string, body?: string, contentType = "application/json"): Promise<Sent> {
  sentCount++;
  let response: Response;
  try {
    response = await server.request(pathname, { method, headers: body === undefined ? {} : { "content-type": contentType }, body, signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    const sent = { label, status: 0, text: `no answer: ${(error as Error).message}` };
    failures.push(sent);
    return sent;
  }
  // A stream that started (SSE) has its status: the rest may stay open by design (thread streams).
  const isStream = response.headers.get("content-type")?.startsWith("text/event-stream") ?? false;
  const text = isStream ? "(stream)" : await response.text();
  if (isStream) await response.body?.cancel();
  const sent = { label, status: response.status, text: text.slice(0, 300) };
  // JSON-RPC transports (A2A, MCP) answer an internal error as -32603 inside a 200.
  if (response.status >= 500 || text.includes('"code":-32603')) failures.push(sent);
  return sent;
}

const methodOf = (entry: RestCase) => entry.route.split(" ")[0]!;
const hasBody = (entry: RestCase) => entry.body !== undefined && !entry.multipart;

/** Every top-level field name a route reports in its 422 for a body of wrong-typed fields. */
async function fieldsRead(entry: RestCase, candidates: string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const sentinel of [1.5, "fuzz-sentinel", { fuzz: 1 }]) {
    const probe = Object.fromEntries(candidates.map((name) => [name, sentinel]));
    const { text } = await send(`${entry.route} discovery`, methodOf(entry), entry.path(fixture), JSON.stringify(probe));
    for (const name of candidates) if (text.includes(`${name}:`) || text.includes(`${name}.`)) found.add(name);
  }
  return [...found];
}

/** A body with one field replaced; array bodies (runs/batch) get it in their first element. */
function withField(base: unknown, field: string, value: unknown): unknown {
  if (Array.isArray(base)) return [{ ...(base[0] as object), [field]: value }, ...base.slice(1)];
  return { ...(base as object), [field]: value };
}

describe("REST and agent protocols under hostile input", () => {
  it("answers no 5xx on any route (malformed, 5,000-level, huge, long and wrong-typed input)", async () => {
    const started = Date.now();
    const app = createHttpApp(server.hangar.runtime, createGraphqlServer(server.hangar.runtime));
    const routes = new Set(app.routes.filter((route) => route.method !== "ALL").map((route) => `${route.method} ${route.path}`));
    const cases = REST_CASES.filter((entry) => routes.has(entry.route));
    // Every route with a body or parameters is in the table (auth-coverage checks the reverse too).
    expect(cases.length).toBe(REST_CASES.length);

    const candidates = [...new Set(REST_CASES.flatMap((entry) => Object.keys((entry.body?.(fixture) ?? {}) as object)))];
    const knownFields = [...candidates, ...KNOWN_FIELDS];
    await forEachConcurrently(cases, 4, async (entry) => {
      const method = methodOf(entry);
      const pathname = entry.path(fixture);
      await fuzzPathParameters(entry);
      if (method === "GET") return fuzzQuery(entry);
      if (entry.multipart) return fuzzMultipart(entry);
      await send(`${entry.route} malformed JSON`, method, pathname, '{"a": [1, ');
      await send(`${entry.route} 5,000 levels`, method, pathname, deepJsonText(5_000));
      await send(`${entry.route} ${MAX_JSON_DEPTH + 1} levels`, method, pathname, deepJsonText(MAX_JSON_DEPTH + 2));
      await send(`${entry.route} 1 MB string body`, method, pathname, JSON.stringify(ONE_MEGABYTE_STRING));
      if (!hasBody(entry)) return;
      const base = entry.body!(fixture);
      const fields = new Set([...Object.keys((Array.isArray(base) ? base[0] : base) as object), ...(await fieldsRead(entry, knownFields))]);
      for (const field of fields) {
        for (const [label, value] of FIELD_VALUES) {
          await send(`${entry.route} ${field}=${label}`, method, pathname, JSON.stringify(withField(base, field, value)));
        }
      }
      // The depth check reads the whole text, so one field stands for all.
      const [first] = fields;
      if (first) await send(`${entry.route} ${first}=5,000 levels`, method, pathname, JSON.stringify(withField(base, first, "§")).replace('"§"', deepJsonText(5_000)));
    });
    console.log(`REST fuzz: ${sentCount} requests in ${Date.now() - started} ms, ${failures.length} 5xx`);
    expect(failures).toEqual([]);
  }, 300_000);

  it("answers no internal error on /mcp: the envelope, every tool's arguments, one tool's every field", async () => {
    const headers = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
    const post = (body: string, sessionId?: string) =>
      server.request("/mcp", { method: "POST", headers: { ...headers, "content-type": "application/json", ...(sessionId ? { "mcp-session-id": sessionId } : {}) }, body });
    const initialize = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } } };
    const opened = await post(JSON.stringify(initialize));
    const sessionId = opened.headers.get("mcp-session-id")!;
    await opened.text();
    await (await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), sessionId)).text();
    const listed = await (await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), sessionId)).text();
    const tools = (JSON.parse(listed.startsWith("{") ? listed : listed.split("\n").find((line) => line.startsWith("data: "))!.slice(6)) as {
      result: { tools: Array<{ name: string; inputSchema: { properties?: Record<string, unknown> } }> };
    }).result.tools;
    expect(tools.length).toBeGreaterThan(0);

    const rpcFailures: Sent[] = [];
    const check = async (label: string, body: string, session?: string) => {
      const response = await post(body, session);
      const text = await response.text();
      if (response.status >= 500 || text.includes('"code":-32603')) rpcFailures.push({ label, status: response.status, text: text.slice(0, 300) });
    };
    await check("malformed", '{"jsonrpc": "2.0", "id": 1, "method": ', sessionId);
    await check("5,000 levels", deepJsonText(5_000), sessionId);
    for (const field of ["id", "method", "params"]) {
      for (const [label, value] of FIELD_VALUES) await check(`initialize ${field}=${label}`, JSON.stringify({ ...initialize, [field]: value }));
    }
    const callOf = (name: string, args: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: args } });
    for (const tool of tools) {
      for (const [label, value] of FIELD_VALUES) await check(`${tool.name} arguments=${label}`, callOf(tool.name, value), sessionId);
    }
    // Each tool runs its graph when its arguments are valid: one tool's every argument stands for the rest.
    const echo = tools.find((tool) => tool.name.includes("echo")) ?? tools[0]!;
    for (const tool of [echo]) {
      const fields = Object.keys(tool.inputSchema.properties ?? {});
      for (const field of fields) {
        for (const [label, value] of FIELD_VALUES) {
          const args = { ...Object.fromEntries(fields.map((name) => [name, "x"])), [field]: value };
          await check(`${tool.name} ${field}=${label}`, callOf(tool.name, args), sessionId);
        }
      }
    }
    expect(rpcFailures).toEqual([]);
  }, 120_000);

  it("refuses a 1 MB store key and namespace label with 422 before writing", async () => {
    const before = await countRows(server.database, ["store_items"]);
    for (const item of [
      { namespace: ["fuzz"], key: ONE_MEGABYTE_STRING, value: {} },
      { namespace: [ONE_MEGABYTE_STRING], key: "k", value: {} },
    ]) {
      const response = await server.request("/store/items", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(item) });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/must be at most 1024 bytes/);
    }
    expect(await countRows(server.database, ["store_items"])).toEqual(before);
  });

  it("stores the largest key and namespace within the bounds, incompressible (the B-tree's worst case)", async () => {
    const random = (length: number) => randomBytes(length).toString("base64url").slice(0, length);
    // 32 labels of 31 bytes: 1,023 bytes joined with dots; a 1,024-byte key.
    const namespace = Array.from({ length: MAX_NAMESPACE_LABELS }, () => random(31));
    const key = random(MAX_STORE_KEY_BYTES);
    await server.client.store.putItem(namespace, key, { fits: true });
    expect((await server.client.store.getItem(namespace, key))?.value).toEqual({ fits: true });
  });
});

/** Field names of LangGraph's payloads worth a value each, beyond the table's own bodies. */
const KNOWN_FIELDS = [
  "limit", "offset", "max_depth", "ttl", "version", "after_seconds", "xray", "key", "namespace", "namespace_prefix",
  "prefix", "suffix", "metadata", "values", "config", "context", "checkpoint", "checkpoint_id", "command", "select",
  "sort_by", "sort_order", "status", "schedule", "timezone", "end_time", "thread_id", "assistant_id", "run_ids",
  "thread_ids", "ids", "graph_id", "name", "description", "if_exists", "stream_mode", "multitask_strategy", "webhook",
  "interrupt_before", "interrupt_after", "supersteps", "as_node", "filter", "query", "refresh_ttl", "index", "cursor",
  "start_time", "end_time", "session_name", "trace_id", "parent_run_id", "dotted_order", "inputs", "outputs",
];

/** Query parameters of LangGraph's API and Hangar's, for discovery. */
const QUERY_PARAMETERS = [
  "limit", "offset", "namespace", "key", "refresh_ttl", "xray", "recurse", "subgraphs", "stream_mode",
  "cancel_on_disconnect", "last_event_id", "checkpoint_ns", "select", "status", "wait", "namespace_prefix",
];

async function fuzzPathParameters(entry: RestCase): Promise<void> {
  const method = methodOf(entry);
  const pattern = entry.route.split(" ")[1]!.split("/");
  const actual = entry.path(fixture).split("?")[0]!.split("/");
  for (const [index, segment] of pattern.entries()) {
    if (!segment.startsWith(":")) continue;
    for (const value of ["1e308", "%00", "%ZZ", "x".repeat(8 * 1024), "00000000-0000-0000-0000-000000000000"]) {
      const pathname = actual.map((part, at) => (at === index ? value : part)).join("/");
      const body = hasBody(entry) ? JSON.stringify(entry.body!(fixture)) : undefined;
      await send(`${entry.route} ${segment}=${value.slice(0, 20)}`, method, pathname, body);
    }
  }
}

async function fuzzQuery(entry: RestCase): Promise<void> {
  const [pathname, query = ""] = entry.path(fixture).split("?");
  const base = new URLSearchParams(query);
  // The parameters a route reads are those its 422 names when each is given a value no typed parameter accepts.
  const names = new Set(base.keys());
  for (const sentinel of ["fuzz-sentinel", "1.5"]) {
    const probe = new URLSearchParams(base);
    for (const name of QUERY_PARAMETERS) if (!base.has(name)) probe.set(name, sentinel);
    const { text } = await send(`${entry.route} discovery`, "GET", `${pathname}?${probe}`);
    for (const name of QUERY_PARAMETERS) if (text.includes(`${name}:`)) names.add(name);
  }
  for (const name of names) {
    for (const value of ["1e308", "2147483648", "-1", '["a",', LONG_STRING.slice(0, 6 * 1024)]) {
      const params = new URLSearchParams(base);
      params.set(name, value);
      await send(`${entry.route} ?${name}=${value.slice(0, 20)}`, "GET", `${pathname}?${params}`);
    }
  }
}

async function fuzzMultipart(entry: RestCase): Promise<void> {
  const boundary = "fuzz";
  const part = (name: string, json: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\nContent-Type: application/json\r\n\r\n${json}\r\n`;
  const id = "4b4d5a4e-0000-4000-8000-000000000001";
  const bodies = [
    part(`post.${id}`, deepJsonText(5_000)),
    part(`post.${id}`, '{"id": '),
    part(`post.${id}`, JSON.stringify({ id, name: LONG_STRING, run_type: "chain", start_time: 1e308 })) + part(`post.${id}.inputs`, deepJsonText(5_000)),
    part(`post.${id}`, JSON.stringify({ id, name: "x", run_type: "chain", start_time: -1e308, dotted_order: LONG_STRING })),
    // The model name is indexed: a 64 KB one must not fail the batch.
    part(`post.${id}`, JSON.stringify({ id, name: "x", run_type: "llm", extra: { metadata: { ls_model_name: LONG_STRING, ls_provider: LONG_STRING } } })),
  ];
  for (const [index, body] of bodies.entries()) {
    await send(`${entry.route} multipart #${index}`, "POST", entry.path(fixture), `${body}--${boundary}--\r\n`, `multipart/form-data; boundary=${boundary}`);
  }
}
