import { randomUUID } from "node:crypto";
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
} from "graphql";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../src/graphql/schema.js";
import { deepJsonText, deepValue, forEachConcurrently, isGraphqlServerError, LONG_STRING, ONE_MEGABYTE_STRING } from "../helpers/fuzz-inputs.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { graphqlWebSocketUrl } from "./helpers.js";

// Issue 25's GraphQL fuzz, kept: every root field of the schema is called with all its arguments
// as variables, each leaf (argument or input field, to any depth) replaced in turn by hostile
// values of its type (huge and negative numbers, 64 KB and 1 MB strings, JSON nested 5,000 levels),
// plus deep documents and malformed GET parameters. No answer may be a 5xx or a masked internal
// error.
let server: TestServer;
let ids: { thread: string; run: string; assistant: string };

beforeAll(async () => {
  server = await startTestServer();
  const thread = await server.client.threads.create();
  const run = await server.client.runs.create(thread.thread_id, "echo", { input: { messages: [] } });
  await server.client.runs.join(thread.thread_id, run.run_id);
  ids = { thread: thread.thread_id, run: run.run_id, assistant: (await server.client.assistants.create({ graphId: "echo" })).assistant_id };
});
afterAll(async () => {
  await server?.close();
});

interface Leaf {
  path: string[];
  type: GraphQLInputType;
}

/** A plausible value of a type: the baseline each hostile value is put into. */
function plausible(type: GraphQLInputType, name: string): unknown {
  if (isNonNullType(type)) return plausible(type.ofType, name);
  if (isListType(type)) return [plausible(type.ofType, name)];
  if (isEnumType(type)) return type.getValues()[0]!.value;
  if (isInputObjectType(type)) {
    // Required fields only: optional ones may exclude each other (index needs a semantic store).
    const required = Object.values(type.getFields()).filter((field) => isNonNullType(field.type) && field.defaultValue === undefined);
    return Object.fromEntries(required.map((field) => [field.name, plausible(field.type, field.name)]));
  }
  switch (getNamedType(type).name) {
    case "ID":
      return /thread/i.test(name) ? ids.thread : /run/i.test(name) ? ids.run : /assistant/i.test(name) ? ids.assistant : randomUUID();
    case "Int":
      return 1;
    case "Float":
      return 1;
    case "Boolean":
      return false;
    case "DateTime":
      return "2026-01-01T00:00:00Z";
    case "JSON":
    case "JSONObject":
      return {};
    default:
      return "x";
  }
}

/** Hostile values of a leaf's type (GraphQL refuses other types before any resolver runs). */
function hostile(type: GraphQLInputType): unknown[] {
  const named = getNamedType(type);
  if (isEnumType(named)) return [];
  switch (named.name) {
    case "Int":
      return [2_147_483_647, -2_147_483_648, 0];
    case "Float":
      return [1e308, -1];
    case "Boolean":
      return [];
    case "JSON":
    case "JSONObject":
      return [{ a: deepValue(200) }, { a: 1e308, b: LONG_STRING }, { [LONG_STRING]: 1 }];
    default:
      return [LONG_STRING, "", "not a valid value"];
  }
}

function leavesOf(type: GraphQLInputType, path: string[], seen = new Set<string>()): Leaf[] {
  const inner = isNonNullType(type) ? type.ofType : type;
  const named = getNamedType(inner);
  if (isInputObjectType(named) && !seen.has(named.name)) {
    const next = new Set(seen).add(named.name);
    return Object.values(named.getFields()).flatMap((field) => leavesOf(field.type, [...path, ...(isListType(inner) ? ["0"] : []), field.name], next));
  }
  return [{ path: isListType(inner) ? [...path, "0"] : path, type: named as GraphQLInputType }];
}

function setAt(value: Record<string, unknown>, path: string[], leaf: unknown): Record<string, unknown> {
  const copy = structuredClone(value);
  let at: Record<string, unknown> = copy;
  for (const [index, key] of path.slice(0, -1).entries()) {
    at[key] ??= path[index + 1] === "0" ? [] : {};
    at = at[key] as Record<string, unknown>;
  }
  at[path[path.length - 1]!] = leaf;
  return copy;
}

function operationOf(kind: "query" | "mutation" | "subscription", field: GraphQLField<unknown, unknown>): string {
  const declared = field.args.map((arg: GraphQLArgument) => `$${arg.name}: ${String(arg.type)}`).join(", ");
  const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(", ");
  const returned = getNamedType(field.type);
  const selection = isObjectType(returned) || !isScalarType(returned) && !isEnumType(returned) ? " { __typename }" : "";
  return `${kind}${declared ? `(${declared})` : ""} { ${field.name}${passed ? `(${passed})` : ""}${selection} }`;
}

const failures: string[] = [];

async function post(label: string, body: string, accept = "application/graphql-response+json"): Promise<void> {
  const response = await server.request("/graphql", { method: "POST", headers: { "content-type": "application/json", accept }, body });
  const text = accept === "text/event-stream" ? await firstEvent(response) : await response.text();
  if (isGraphqlServerError(response.status, text)) failures.push(`${label}: ${response.status} ${text.slice(0, 200)}`);
}

/** A subscription's first event (or its refusal); the stream itself may stay open by design. */
async function firstEvent(response: Response): Promise<string> {
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) return response.text();
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(value);
}

describe("GraphQL under hostile input", () => {
  it("answers no internal error for any root field's any argument", async () => {
    const started = Date.now();
    const roots = [
      ["query", schema.getQueryType()],
      ["mutation", schema.getMutationType()],
      ["subscription", schema.getSubscriptionType()],
    ] as const;
    const calls: Array<() => Promise<void>> = [];
    let fieldCount = 0;
    for (const [kind, root] of roots) {
      for (const field of Object.values(root?.getFields() ?? {})) {
        fieldCount++;
        const query = operationOf(kind, field);
        const accept = kind === "subscription" ? "text/event-stream" : "application/graphql-response+json";
        const base = Object.fromEntries(field.args.filter((arg) => isNonNullType(arg.type)).map((arg) => [arg.name, plausible(arg.type, arg.name)]));
        calls.push(() => post(`${field.name} baseline`, JSON.stringify({ query, variables: base }), accept));
        const variablesText = JSON.stringify(base);
        calls.push(() => post(`${field.name} 5,000-level variables`, `{"query": ${JSON.stringify(query)}, "variables": {"deep": ${deepJsonText(5_000)}, "rest": ${variablesText}}}`, accept));
        for (const arg of field.args) {
          for (const leaf of leavesOf(arg.type, [arg.name])) {
            for (const value of hostile(leaf.type)) {
              const variables = setAt(base, leaf.path, value);
              calls.push(() => post(`${field.name} ${leaf.path.join(".")}=${JSON.stringify(value).slice(0, 30)}`, JSON.stringify({ query, variables }), accept));
            }
          }
          if (getNamedType(arg.type).name === "String" || getNamedType(arg.type).name === "ID") {
            const variables = { ...base, [arg.name]: isListType(isNonNullType(arg.type) ? arg.type.ofType : arg.type) ? [ONE_MEGABYTE_STRING] : ONE_MEGABYTE_STRING };
            calls.push(() => post(`${field.name} ${arg.name}=1 MB`, JSON.stringify({ query, variables }), accept));
          }
        }
      }
    }
    expect(fieldCount).toBeGreaterThan(40);
    await forEachConcurrently(calls, 4, (call) => call());
    console.log(`GraphQL fuzz: ${calls.length} requests over ${fieldCount} root fields in ${Date.now() - started} ms, ${failures.length} internal errors`);
    expect(failures).toEqual([]);
  }, 300_000);

  it("refuses deep documents, deep variables (HTTP and WebSocket) and malformed GET parameters, naming the problem", async () => {
    const deepSelection = `{ viewer ${"{ kind ".repeat(500)}${"}".repeat(501)}`;
    const deepList = `{ storeItem(namespace: ${"[".repeat(5_000)}${"]".repeat(5_000)}, key: "x") { key } }`;
    for (const query of [deepSelection, deepList]) {
      const response = await server.request("/graphql", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query }) });
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(/nests deeper than 100 levels/);
    }
    const get = (params: Record<string, string>) => server.request(`/graphql?${new URLSearchParams({ query: "{ viewer { kind } }", ...params })}`, { headers: { accept: "application/json" } });
    for (const [params, message] of [
      [{ variables: "{bad" }, /variables is not valid JSON/],
      [{ variables: "[1]" }, /variables must be a JSON object/],
      [{ extensions: "{" }, /extensions is not valid JSON/],
      // 600 levels: a URL holds no more (Node refuses request heads over 16 KB with 431).
      [{ variables: deepJsonText(600) }, /variables\.a\[0\].*nested deeper than 100 levels/],
    ] as const) {
      const response = await get(params);
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(message);
    }
    // Over graphql-ws the message is parsed by the library: the variables are walked instead.
    // Raw frames: a client library would overflow its own stack serializing 5,000 levels.
    const socket = new WebSocket(graphqlWebSocketUrl(server), "graphql-transport-ws");
    const messages: Array<{ type: string; id?: string; payload?: unknown }> = [];
    const arrived = (type: string, id?: string) =>
      new Promise<{ payload?: unknown }>((resolve) => {
        const check = () => {
          const found = messages.find((message) => message.type === type && message.id === id);
          if (found) resolve(found);
          else socket.once("message", check);
        };
        check();
      });
    socket.on("message", (data: Buffer) => messages.push(JSON.parse(data.toString("utf8")) as (typeof messages)[number]));
    await new Promise((resolve) => socket.once("open", resolve));
    socket.send(JSON.stringify({ type: "connection_init" }));
    await arrived("connection_ack");
    const mutation = JSON.stringify("mutation($m: JSONObject) { createThread(input: {metadata: $m}) { __typename } }");
    socket.send(`{"type": "subscribe", "id": "deep", "payload": {"query": ${mutation}, "variables": {"m": ${deepJsonText(5_000)}}}}`);
    expect(JSON.stringify(await arrived("next", "deep"))).toMatch(/variables\.m\.a\[0\].*nested deeper than 100 levels/);
    // The socket still serves the next operation.
    socket.send(JSON.stringify({ type: "subscribe", id: "viewer", payload: { query: "{ viewer { kind } }" } }));
    expect(await arrived("next", "viewer")).toMatchObject({ payload: { data: { viewer: { kind: expect.any(String) } } } });
    socket.close();

    const body = `{"query": "mutation($m: JSONObject) { createThread(input: {metadata: $m}) { __typename } }", "variables": {"m": ${deepJsonText(200)}}}`;
    const deepVariables = await server.request("/graphql", { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(deepVariables.status).toBe(400);
    expect(await deepVariables.text()).toMatch(/body\.variables\.m\.a\[0\].*nested deeper than 100 levels/);
  });
});
