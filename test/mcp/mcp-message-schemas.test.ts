import path from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

// The official MCP client calling graphs with message channels, with schemas from TypeScript
// types on (the default of `hangar serve`): the input schemas a tool call is validated against
// take messages in the forms LangGraph takes them.
const DEPLOYMENT = path.resolve(import.meta.dirname, "../fixtures/messages/langgraph.json");
const API_KEY = "mcp-messages-key";

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [API_KEY], configPath: DEPLOYMENT, env: { HANGAR_SCHEMAS_FROM_TYPES: "true" } });
  // The warm-up started by the server: compiling the types takes seconds (minutes on a loaded
  // machine), longer than the MCP client's 60 s request timeout.
  await server.hangar.runtime.graphs.prepareSchemas();
  client = new Client({ name: "hangar-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { "x-api-key": API_KEY } } }));
}, 240_000);
afterAll(async () => {
  await client?.close().catch(() => undefined);
  await server?.close();
});

async function replyOf(name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return (result.content[0] as { text: string }).text;
}

describe("MCP tools over message graphs", () => {
  it("a plain JavaScript MessagesAnnotation graph takes {role, content} messages", async () => {
    expect(await replyOf("plain", { messages: [{ role: "user", content: "hi" }] })).toBe("echo: hi");
  });

  it("lists the message channel as an anyOf of message shapes, with no allOf", async () => {
    const { tools } = await client.listTools();
    const plain = tools.find((tool) => tool.name === "plain")!;
    const messages = (plain.inputSchema.properties as Record<string, Record<string, unknown>>).messages!;
    expect(messages.langgraph_type).toBe("messages");
    const list = (messages.anyOf as Array<Record<string, unknown>>)[0]!;
    const shapes = ((list.items as { anyOf: Array<{ title: string }> }).anyOf).map((shape) => shape.title);
    expect(shapes).toEqual(["Message with role", "Message with type", "Removal of a message", "LangChain-serialized message", "User message text", "[role, content] pair"]);
    expect(JSON.stringify(plain.inputSchema)).not.toContain("allOf");
  });

  it("takes every other form: type/content, a string, a [role, content] pair, a LangChain-serialized message, one message alone", { timeout: 120_000 }, async () => {
    const serialized = JSON.parse(JSON.stringify(new HumanMessage("serialized")));
    for (const tool of ["plain", "zod_v3", "zod_v4", "state_schema", "typed_annotation"]) {
      expect(await replyOf(tool, { messages: [{ type: "human", content: "typed" }] }), tool).toBe("echo: typed");
      expect(await replyOf(tool, { messages: ["text"] }), tool).toBe("echo: text");
      expect(await replyOf(tool, { messages: [["user", "pair"]] }), tool).toBe("echo: pair");
      expect(await replyOf(tool, { messages: [serialized] }), tool).toBe("echo: serialized");
      if (tool !== "zod_v4") expect(await replyOf(tool, { messages: { role: "user", content: "alone" } }), tool).toBe("echo: alone");
    }
    // LangGraph checks zod v4's `z.array(z.custom())` itself and wants a list: so does the schema.
    await expect(client.callTool({ name: "zod_v4", arguments: { messages: { role: "user", content: "alone" } } })).rejects.toThrow(
      /Invalid arguments for tool 'zod_v4'/,
    );
  });

  it("still refuses what is no message, naming the argument", async () => {
    const call = client.callTool({ name: "plain", arguments: { messages: [42] } });
    await expect(call).rejects.toThrow(McpError);
    await expect(call).rejects.toThrow(/Invalid arguments for tool 'plain'.*messages/);
  });
});
