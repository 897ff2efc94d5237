import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { CONDITION_TIMEOUT_MS } from "../helpers/condition-timeout.js";

// tools/list_changed across processes: two Hangar servers on one database; an assistant changed
// through either reaches an MCP session on the first, once: at once when made through the first,
// by the NOTIFY the second sends after its commit otherwise (db/change-announcer.ts).
let first: TestServer;
let second: TestServer;
let client: Client;
let notifications = 0;

beforeAll(async () => {
  first = await startTestServer();
  second = await startTestServer({ database: first.database, roles: { api: true, worker: false, cron: false } });
  client = new Client({ name: "list-changed", version: "1.0.0" });
  // The client opens its notification stream (GET /mcp) on its own after initializing; the
  // server holds the stream once it has answered, so the tests start counting after that answer.
  let streamOpened!: () => void;
  const streamOpen = new Promise<void>((resolve) => (streamOpened = resolve));
  const watchingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method === "GET" && response.ok) streamOpened();
    return response;
  };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    notifications += 1;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${first.url}/mcp`), { fetch: watchingFetch }));
  await streamOpen;
});
afterAll(async () => {
  await client?.close();
  await second?.close();
  await first?.close();
});

describe("tools/list_changed", () => {
  it("arrives once for a change made through this process", async () => {
    notifications = 0;
    await first.client.assistants.create({ graphId: "echo", name: "made here" });
    await vi.waitFor(() => expect(notifications).toBe(1), { timeout: CONDITION_TIMEOUT_MS });
    // The NOTIFY this process sends about its own change is not passed on a second time.
    await first.hangar.runtime.db.flushAnnouncements();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(notifications).toBe(1);
  });

  it("arrives for changes made through another process: create, update, delete", async () => {
    notifications = 0;
    const assistant = await second.client.assistants.create({ graphId: "echo", name: "made elsewhere" });
    await vi.waitFor(() => expect(notifications).toBe(1), { timeout: CONDITION_TIMEOUT_MS });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("made_elsewhere");
    await second.client.assistants.update(assistant.assistant_id, { name: "renamed elsewhere" });
    await vi.waitFor(() => expect(notifications).toBe(2), { timeout: CONDITION_TIMEOUT_MS });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("renamed_elsewhere");
    await second.client.assistants.delete(assistant.assistant_id);
    await vi.waitFor(() => expect(notifications).toBe(3), { timeout: CONDITION_TIMEOUT_MS });
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("renamed_elsewhere");
  });
});
