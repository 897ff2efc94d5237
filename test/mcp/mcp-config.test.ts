import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exposedAssistants } from "../../src/graphs/agent-protocols-config.js";
import { loadDeploymentConfig } from "../../src/graphs/deployment-config.js";
import { reviewDeploymentKeys } from "../../src/graphs/deployment-keys.js";
import { nameTools } from "../../src/mcp/mcp-tools.js";
import { systemAssistantId } from "../../src/domain/ids.js";
import { mcpTransport } from "../helpers/mcp-transport.js";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";

// langgraph.json http.mcp limits the tools to some graphs / assistants; http.disable_a2a removes
// /a2a (404), as http.disable_mcp removes /mcp (test/a2a/a2a-config.test.ts).
const LIMITED = path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "agent-protocols/mcp-limited.langgraph.json");

describe("http.mcp and http.disable_a2a", () => {
  let server: TestServer;
  let client: Client;
  let notificationStreamOpen: Promise<void>;
  beforeAll(async () => {
    server = await startTestServer({ configPath: LIMITED });
    client = new Client({ name: "limited", version: "1.0.0" });
    const connection = mcpTransport(new URL(`${server.url}/mcp`));
    notificationStreamOpen = connection.notificationStreamOpen;
    await client.connect(connection.transport);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it("offers only the assistants of the listed graphs, new ones included", async () => {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo"]);
    await server.client.assistants.create({ graphId: "slow", name: "hidden" });
    await server.client.assistants.create({ graphId: "echo", name: "shown" });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo", "shown"]);
    const hidden = await client.callTool({ name: "slow", arguments: {} }).catch((error: Error) => error);
    expect(String(hidden)).toMatch(/Unknown tool 'slow'; tools: echo, shown/);
  });

  it("serves no /a2a at all when http.disable_a2a is set", async () => {
    const card = await fetch(`${server.url}/a2a/${systemAssistantId("echo")}/.well-known/agent-card.json`);
    expect(card.status).toBe(404);
    const rpc = await fetch(`${server.url}/a2a/${systemAssistantId("echo")}`, { method: "POST", body: "{}" });
    expect(rpc.status).toBe(404);
    expect((await rpc.json()).detail).toMatch(/No route for POST/);
  });

  it("shuts down promptly with a session (and its notification stream) open", async () => {
    await notificationStreamOpen;
    const started = Date.now();
    await server.close();
    // Without closing the sessions first, the open SSE stream held the server for 5 s.
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe("reading the keys", () => {
  const deployment = loadDeploymentConfig(FIXTURE_DEPLOYMENT);
  const withHttp = (http: Record<string, unknown>) => ({ ...deployment, http });

  it("knows the agent-protocol keys (no start-up warning for them)", () => {
    const review = reviewDeploymentKeys(withHttp({ mcp: {}, a2a: {}, disable_mcp: false, disable_a2a: false }));
    expect(review.ignored).toEqual([]);
  });

  it.each([
    [{ mcp: { graphs: ["nope"] } }, /http.mcp.graphs names graphs that are not deployed \(nope\)/],
    [{ mcp: { assistants: ["agent"] } }, /http.mcp.assistants.0: must be an assistant id/],
    [{ a2a: { tools: [] } }, /http.a2a: Unrecognized key: "tools"/],
    [{ a2a: "all" }, /http.a2a: /],
  ])("refuses %j at start-up, naming the key", (http, message) => {
    const protocol = "mcp" in http ? "mcp" : "a2a";
    expect(() => exposedAssistants(withHttp(http), protocol, ["agent", "echo"])).toThrow(message);
  });

  it("reads graphs and assistant ids", () => {
    const id = systemAssistantId("echo").toUpperCase();
    expect(exposedAssistants(withHttp({ mcp: { graphs: ["agent"], assistants: [id] } }), "mcp", ["agent"])).toEqual({
      graphIds: ["agent"],
      assistantIds: [id.toLowerCase()],
    });
    expect(exposedAssistants(withHttp({}), "mcp", ["agent"])).toBeNull();
  });
});

describe("tool names", () => {
  const callable = (name: string, assistantId: string) =>
    ({ assistant: { name, assistantId, graphId: "echo" }, inputSchema: null }) as unknown as Parameters<typeof nameTools>[0][number];

  it("keeps MCP's characters, and suffixes a repeated name with the later assistant's id", () => {
    const named = nameTools([
      callable("Support bot (EU)", "aaaaaaaa-0000-4000-8000-000000000001"),
      callable("Support bot (EU)", "bbbbbbbb-0000-4000-8000-000000000002"),
      callable("¡¡¡", "cccccccc-0000-4000-8000-000000000003"),
      callable("x".repeat(100), "dddddddd-0000-4000-8000-000000000004"),
    ]).map((tool) => tool.name);
    expect(named).toEqual(["Support_bot_EU", "Support_bot_EU_bbbbbbbb", "assistant", "x".repeat(64)]);
    for (const name of named) expect(name).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
  });
});
