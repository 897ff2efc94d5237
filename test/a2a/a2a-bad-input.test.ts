import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemAssistantId } from "../../src/domain/ids.js";
import { countRows } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Bad input to /a2a/{assistant_id}, on the wire, in both dialects (A2A-Version 1.0, and 0.3 as
// sent without the header): the JSON-RPC code for each mistake, a message naming it, and nothing
// runs (no run or thread row appears).
const API_KEY = "a2a-bad-input-key";
const TABLES = ["runs", "threads", "run_events"] as const;

let server: TestServer;

async function rpc(body: string, version?: string): Promise<{ status: number; message: any }> {
  const headers: Record<string, string> = { "x-api-key": API_KEY, "content-type": "application/json" };
  if (version) headers["A2A-Version"] = version;
  const response = await fetch(`${server.url}/a2a/${systemAssistantId("echo")}`, { method: "POST", headers, body });
  return { status: response.status, message: await response.json() };
}

const request = (method: string, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id: "r1", method, params });
const v1Message = (parts: unknown[]) => ({ message: { messageId: randomUUID(), role: "ROLE_USER", parts } });
const v03Message = (parts: unknown[]) => ({ message: { kind: "message", messageId: randomUUID(), role: "user", parts } });

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [API_KEY] });
});
afterAll(async () => {
  await server?.close();
});

const CASES: Array<{ name: string; version?: string; body: string; code: number; message: RegExp }> = [
  { name: "malformed JSON", version: "1.0", body: '{"jsonrpc": "2.0", "method": ', code: -32700, message: /Parse error: the body is not valid JSON/ },
  { name: "malformed JSON (0.3)", body: "not json at all", code: -32700, message: /Parse error/ },
  { name: "a batch", version: "1.0", body: "[]", code: -32600, message: /batch requests are not supported/ },
  { name: "wrong jsonrpc version", body: JSON.stringify({ jsonrpc: "1.0", id: 1, method: "message/send" }), code: -32600, message: /"jsonrpc" must be "2.0"/ },
  { name: "no method", version: "1.0", body: JSON.stringify({ jsonrpc: "2.0", id: 1 }), code: -32600, message: /"method" must be a non-empty string/ },
  { name: "unknown method", version: "1.0", body: request("Explode", {}), code: -32601, message: /Method not found: 'Explode'/ },
  { name: "unknown method (0.3)", body: request("tasks/explode", {}), code: -32601, message: /Method not found: 'tasks\/explode'.*message\/send/ },
  {
    name: "a 0.3 method sent as 1.0",
    version: "1.0",
    body: request("message/send", v03Message([{ kind: "text", text: "hi" }])),
    code: -32601,
    message: /'message\/send' is an A2A 0.3 method/,
  },
  { name: "params not an object", body: request("message/send", [1]), code: -32602, message: /"params" must be an object/ },
  { name: "tasks/get without an id (0.3)", body: request("tasks/get", {}), code: -32602, message: /params\.id must be a non-empty string/ },
  { name: "GetTask without an id", version: "1.0", body: request("GetTask", {}), code: -32602, message: /params\.id must be a non-empty string/ },
  { name: "tasks/cancel with a numeric id (0.3)", body: request("tasks/cancel", { id: 5 }), code: -32602, message: /params\.id must be a non-empty string/ },
  { name: "JSON nested 5,000 levels", body: `{"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"a": ${"[".repeat(5_000)}${"]".repeat(5_000)}}}`, code: -32600, message: /params\.a\[0\].*nested deeper than 100 levels/ },
  { name: "no message", version: "1.0", body: request("SendMessage", {}), code: -32602, message: /params.message is required/ },
  { name: "a message without parts", version: "1.0", body: request("SendMessage", v1Message([])), code: -32602, message: /parts is empty/ },
  { name: "a message without parts (0.3)", body: request("message/send", v03Message([])), code: -32602, message: /parts is empty/ },
  {
    name: "a file part",
    version: "1.0",
    body: request("SendMessage", v1Message([{ url: "https://example.invalid/a.pdf", mediaType: "application/pdf" }])),
    code: -32005,
    message: /parts\[0\] is a url \(file\) part/,
  },
  {
    name: "text PostgreSQL cannot store",
    body: request("message/send", v03Message([{ kind: "text", text: "nul \u0000 here" }])),
    code: -32602,
    message: /params\.message\.parts\[0\]\.text: text contains a NUL character/,
  },
  { name: "an unknown task", version: "1.0", body: request("GetTask", { id: randomUUID() }), code: -32001, message: /Task .* not found/ },
  { name: "an unknown task (0.3)", body: request("tasks/get", { id: "not-a-uuid" }), code: -32001, message: /not found/ },
  { name: "an unsupported A2A-Version", version: "9.9", body: request("SendMessage", v1Message([{ text: "hi" }])), code: -32009, message: /A2A-Version/ },
];

describe("A2A bad input", () => {
  it.each(CASES)("$name → $code, nothing runs", async ({ body, version, code, message }) => {
    const before = await countRows(server.database, TABLES);
    const answer = await rpc(body, version);
    expect(answer.message?.error?.code, JSON.stringify(answer)).toBe(code);
    expect(answer.message.error.message).toMatch(message);
    expect(await countRows(server.database, TABLES)).toEqual(before);
  });

  it("answers an unknown assistant with 404 naming it, for the card and for JSON-RPC", async () => {
    const id = randomUUID();
    for (const [path, init] of [
      [`/a2a/${id}/.well-known/agent-card.json`, {}],
      [`/a2a/${id}`, { method: "POST", headers: { "content-type": "application/json" }, body: request("message/send", v03Message([{ kind: "text", text: "hi" }])) }],
    ] as const) {
      const response = await server.request(path, init as RequestInit);
      expect(response.status).toBe(404);
      expect((await response.json()).detail).toMatch(id);
    }
  });
});
