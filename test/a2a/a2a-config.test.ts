import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemAssistantId } from "../../src/domain/ids.js";
import { FIXTURE_DEPLOYMENT, startTestServer, type TestServer } from "../helpers/test-server.js";

// langgraph.json http.a2a limits the agents to some graphs / assistants; http.disable_mcp removes /mcp.
const LIMITED = path.resolve(path.dirname(FIXTURE_DEPLOYMENT), "agent-protocols/a2a-limited.langgraph.json");

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ configPath: LIMITED });
});
afterAll(async () => {
  await server?.close();
});

describe("http.a2a and http.disable_mcp", () => {
  it("serves agents only for the assistants of the listed graphs", async () => {
    const card = (graph: string) => fetch(`${server.url}/a2a/${systemAssistantId(graph)}/.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } });
    const slow = await card("slow");
    expect(slow.status).toBe(200);
    expect((await slow.json()).name).toBe("slow");
    const echo = await card("echo");
    expect(echo.status).toBe(404);
    expect((await echo.json()).detail).toMatch(systemAssistantId("echo"));
  });

  it("serves no /mcp at all when http.disable_mcp is set", async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
    });
    expect(response.status).toBe(404);
    expect((await response.json()).detail).toBe("No route for POST /mcp");
  });
});
