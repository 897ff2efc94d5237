import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/**
 * The MCP SDK's HTTP client transport, plus a promise that resolves once its standalone
 * notification stream (the GET /mcp it opens after initialization) has been answered: from then
 * on the server can push notifications to it. Tests wait on this instead of sleeping.
 */
export function mcpTransport(url: URL, headers: Record<string, string> = {}) {
  let opened!: () => void;
  const notificationStreamOpen = new Promise<void>((resolve) => (opened = resolve));
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if ((init?.method ?? "GET") === "GET" && response.ok) opened();
      return response;
    },
  });
  return { transport, notificationStreamOpen };
}
