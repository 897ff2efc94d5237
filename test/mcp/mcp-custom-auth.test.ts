import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";
import { signUserToken } from "../helpers/user-tokens.js";

// /mcp under the README's JWT deployment (examples/auth/auth.ts): the deployment's authenticate
// decides who calls, runs act for that user, and a session belongs to whoever opened it.
const AUTH_DEPLOYMENT = path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "auth.langgraph.json");

let server: TestServer;
const clients: Client[] = [];

async function connect(user: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${await signUserToken(user)}` } },
  });
  const client = new Client({ name: `${user}-client`, version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

beforeAll(async () => {
  server = await startTestServer({ configPath: AUTH_DEPLOYMENT });
});
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await server?.close();
});

describe("MCP with custom auth", () => {
  it("runs a tool as the authenticated user", async () => {
    const { client } = await connect("alice");
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["echo", "slow", "whoami"]);
    const result = (await client.callTool({ name: "whoami", arguments: {} })) as CallToolResult;
    expect(result.structuredContent).toEqual({ users: ["alice"] });
  });

  it("answers the handler's 401 to a missing or forged token, and opens no session", async () => {
    for (const authorization of [undefined, `Bearer ${await signUserToken("mallory", "another-secret-0123456789abcdef0123")}`]) {
      const response = await fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "m", version: "1" } } }),
      });
      expect(response.status).toBe(401);
      expect(await response.text()).toMatch(/token/);
      expect(response.headers.get("mcp-session-id")).toBeNull();
    }
  });

  it("does not let another user use a session: it answers as unknown (404)", async () => {
    const { transport } = await connect("alice");
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${await signUserToken("bob")}`,
        "mcp-session-id": transport.sessionId!,
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } }),
    });
    expect(response.status).toBe(404);
    expect((await response.json()).error.message).toBe("Session not found");
  });
});
