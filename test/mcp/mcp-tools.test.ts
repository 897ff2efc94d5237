import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mcpTransport } from "../helpers/mcp-transport.js";
import { sql } from "../helpers/sql.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { CONDITION_TIMEOUT_MS } from "../helpers/condition-timeout.js";

// The official MCP client against /mcp of the fixture deployment (agent, echo, slow, ...), with an
// API key: tools are the assistants, a call is an ordinary stateless run.
const API_KEY = "mcp-test-key";

let server: TestServer;
const clients: Client[] = [];

async function connect(headers: Record<string, string> = { "x-api-key": API_KEY }): Promise<Client> {
  return (await connectWatched(headers)).client;
}

/** A connected client, and when its notification stream is open. */
async function connectWatched(headers: Record<string, string> = { "x-api-key": API_KEY }) {
  const client = new Client({ name: "hangar-test", version: "1.0.0" });
  const { transport, notificationStreamOpen } = mcpTransport(new URL(`${server.url}/mcp`), headers);
  await client.connect(transport);
  clients.push(client);
  return { client, notificationStreamOpen };
}

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [API_KEY] });
});
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await server?.close();
});

describe("MCP tools", () => {
  it("lists every assistant as a tool with the graph's input schema", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["agent", "echo", "failing", "interrupting", "slow"]);
    const agent = tools.find((tool) => tool.name === "agent")!;
    expect(agent.inputSchema.type).toBe("object");
    expect(Object.keys(agent.inputSchema.properties ?? {})).toContain("messages");
    expect(agent._meta?.["hangar/graph_id"]).toBe("agent");
    expect(agent.description).toMatch(/agent/);
  });

  it("calls a tool as a stateless run of the offline model and returns its reply", async () => {
    const client = await connect();
    const result = (await client.callTool({ name: "agent", arguments: { messages: [{ role: "user", content: "hello there" }] } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const text = (result.content[0] as { text: string }).text;
    expect(text.length).toBeGreaterThan(0);
    expect(text).toMatch(/hello there/);
    const runId = result._meta?.["hangar/run_id"] as string;
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    // An ordinary run: traced like any REST run, with the graph run as the trace's root.
    await vi.waitFor(async () => {
      const root = await server.request(`/tracing/runs/${runId}`);
      expect(root.status).toBe(200);
      expect((await root.json()).extra.metadata).toMatchObject({ run_id: runId, graph_id: "agent" });
    }, { timeout: CONDITION_TIMEOUT_MS });
    const values = result.structuredContent as { messages: Array<{ type: string; content: string }> };
    expect(values.messages.at(-1)?.type).toBe("ai");
  });

  it("reports a failing run as a tool error naming the run, not a protocol error", async () => {
    const client = await connect();
    const result = (await client.callTool({ name: "failing", arguments: { messages: [] } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/^Run [0-9a-f-]{36} failed: /);
  });

  it("sends progress notifications from the run's stream when the client asks for them", async () => {
    const client = await connect();
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = (await client.callTool({ name: "slow", arguments: { messages: [] } }, undefined, {
      onprogress: (update) => progress.push(update),
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(progress.map((update) => update.progress)).toEqual([1, 2, 3]);
    expect(progress.map((update) => update.message)).toEqual(["step 1: first", "step 2: second", "step 3: third"]);
  });

  it("cancels the run when the client cancels the call", async () => {
    // Its steps last ten minutes (the assistant's context): only the cancel can end the run,
    // however slowly a loaded machine carries it.
    const forever = await server.client.assistants.create({ graphId: "slow", name: "Slow forever", context: { step_ms: 600_000 } } as never);
    const client = await connect();
    const abort = new AbortController();
    const call = client.callTool({ name: "Slow_forever", arguments: {} }, undefined, { signal: abort.signal });
    const rejected = expect(call).rejects.toThrow(/abort/i);
    // Cancelled once its run is running.
    await vi.waitFor(async () => {
      const runs = await sql<{ status: string }>(server.database, "SELECT status FROM runs WHERE assistant_id = $1", [forever.assistant_id]);
      expect(runs.map((run) => run.status)).toEqual(["running"]);
    }, { timeout: CONDITION_TIMEOUT_MS });
    abort.abort();
    await rejected;
    // The graph run stopped: its trace ends with the abort (a finished run's has no error).
    await vi.waitFor(async () => {
      const roots = await sql<{ error: string | null }>(
        server.database,
        `SELECT error FROM trace_runs WHERE parent_run_id IS NULL AND extra->'metadata'->>'graph_id' = 'slow' AND error IS NOT NULL`,
      );
      expect(roots.map((root) => root.error)).toEqual([expect.stringMatching(/^Abort/)]);
    }, { timeout: CONDITION_TIMEOUT_MS });
  });

  it("announces tools/list_changed when an assistant is created, and lists the new tool", async () => {
    const { client, notificationStreamOpen } = await connectWatched();
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    // The standalone SSE stream (GET /mcp) carries server notifications.
    await notificationStreamOpen;
    await server.client.assistants.create({ graphId: "echo", name: "Echo twice", description: "Says it back" });
    await changed;
    const { tools } = await client.listTools();
    const added = tools.find((tool) => tool.name === "Echo_twice");
    expect(added?.description).toBe("Says it back");
    const result = (await client.callTool({ name: "Echo_twice", arguments: { messages: [{ role: "user", content: "hi" }] } })) as CallToolResult;
    expect((result.content[0] as { text: string }).text).toBe("echo: hi");
  });

  it("ends a session on DELETE: its id is unknown afterwards (404)", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { "x-api-key": API_KEY } } });
    const client = new Client({ name: "short-lived", version: "1.0.0" });
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    const after = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "x-api-key": API_KEY, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionId },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(after.status).toBe(404);
    await client.close();
  });

  it("refuses a caller without the API key (401) and creates no session", async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("mcp-session-id")).toBeNull();
  });
});
