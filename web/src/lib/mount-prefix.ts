/**
 * The server's langgraph.json `http.mount_prefix` ("" without one), which the server writes into
 * the index.html it serves (src/http/console-static.ts): the console is built once, for any prefix,
 * so its GraphQL URL and its routes read it at run time. Absent in `npm run dev:web` and in tests.
 */
export const MOUNT_PREFIX =
  typeof document === "undefined" ? "" : (document.querySelector('meta[name="hangar-mount-prefix"]')?.getAttribute("content") ?? "");
