import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countRows } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// Bad input to /mcp, on the wire: each mistake gets the JSON-RPC code the spec gives it and a
// message naming it, and nothing runs (no run, thread, trace or event row appears).
const API_KEY = "mcp-bad-input-key";
const TABLES = ["runs", "threads", "trace_runs", "run_events"] as const;

let server: TestServer;
let sessionId: string;

const headers = (extra: Record<string, string> = {}) => ({
  "x-api-key": API_KEY,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-06-18",
  ...extra,
});

/** The JSON-RPC answer of a POST, read from a JSON body or the first SSE `data:` line. */
async function rpc(body: string, extraHeaders: Record<string, string> = { "mcp-session-id": sessionId }): Promise<{ status: number; message: any }> {
  const response = await fetch(`${server.url}/mcp`, { method: "POST", headers: headers(extraHeaders), body });
  const text = await response.text();
  const data = text.startsWith("{") ? text : text.split("\n").find((line) => line.startsWith("data: "))?.slice(6) ?? "null";
  return { status: response.status, message: JSON.parse(data) };
}

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [API_KEY] });
  const init = await fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
  expect(init.status).toBe(200);
  sessionId = init.headers.get("mcp-session-id")!;
  await init.text();
  const initialized = await fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: headers({ "mcp-session-id": sessionId }),
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  expect(initialized.status).toBe(202);
});
afterAll(async () => {
  await server?.close();
});

const call = (name: string, args: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args } });

const CASES: Array<{ name: string; body: string; code: number; message: RegExp }> = [
  { name: "malformed JSON", body: '{"jsonrpc": "2.0", "id": 1, "method": ', code: -32700, message: /Parse error: the body is not valid JSON/ },
  { name: "a bare number", body: "42", code: -32600, message: /Invalid Request: a JSON-RPC 2.0 message must be an object/ },
  { name: "not a JSON-RPC message", body: JSON.stringify({ jsonrpc: "2.0", hello: "world" }), code: -32600, message: /Invalid Request: a message needs a "method"/ },
  { name: "wrong jsonrpc version", body: JSON.stringify({ jsonrpc: "1.0", id: 1, method: "tools/list" }), code: -32600, message: /Invalid Request: "jsonrpc" must be "2.0"/ },
  { name: "unknown method", body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/explode", params: {} }), code: -32601, message: /Method not found/ },
  { name: "unknown tool", body: call("no_such_tool", {}), code: -32602, message: /Unknown tool 'no_such_tool'; tools: agent, echo/ },
  {
    name: "arguments not matching the input schema",
    body: call("agent", { message: "hi" }),
    code: -32602,
    message: /Invalid arguments for tool 'agent': .*additional properties \(unknown: message; expected: messages\)/,
  },
  { name: "arguments that are not an object", body: call("echo", [1, 2]), code: -32602, message: /Invalid tools\/call request: .*arguments/s },
  {
    name: "text PostgreSQL cannot store",
    body: call("echo", { messages: [{ role: "user", content: "nul \u0000 here" }] }),
    code: -32602,
    message: /body\.params\.arguments\.messages\[0\]\.content: text contains a NUL character/,
  },
  { name: "tools/call without a name", body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: {} }), code: -32602, message: /Invalid tools\/call request: .*name/s },
];

describe("MCP bad input", () => {
  it.each(CASES)("$name → $code, nothing runs", async ({ body, code, message }) => {
    const before = await countRows(server.database, TABLES);
    const answer = await rpc(body);
    expect(answer.message?.error?.code, JSON.stringify(answer)).toBe(code);
    expect(answer.message.error.message).toMatch(message);
    expect(await countRows(server.database, TABLES)).toEqual(before);
  });

  it("answers an unknown session with 404 and a request without a session (not initialize) with 400", async () => {
    const unknown = await rpc(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), { "mcp-session-id": "no-such-session" });
    expect(unknown.status).toBe(404);
    expect(unknown.message.error.message).toMatch(/Session not found/);
    const sessionless = await rpc(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), {});
    expect(sessionless.status).toBe(400);
    expect(sessionless.message.error.message).toMatch(/not initialized|session/i);
  });

  it("negotiates the protocol version: an unknown one at initialize gets the server's, an unsupported header 400", async () => {
    const init = await rpc(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "1999-01-01", capabilities: {}, clientInfo: { name: "old", version: "1" } } }),
      {},
    );
    expect(init.status).toBe(200);
    expect(init.message.result.protocolVersion).toMatch(/^20\d\d-\d\d-\d\d$/);
    expect(init.message.result.protocolVersion).not.toBe("1999-01-01");
    const wrongHeader = await rpc(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), {
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "1999-01-01",
    });
    expect(wrongHeader.status).toBe(400);
    expect(wrongHeader.message.error.message).toMatch(/protocol version/i);
  });
});
