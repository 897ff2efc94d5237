import { MOUNT_PREFIX } from "./mount-prefix.js";

/**
 * The console's client routes (under the server's http.mount_prefix, when it has one). They all live under /console/ (the server answers index.html for
 * any of them), so none can ever collide with an API path such as /assistants or /threads.
 */

export const CONSOLE_BASE = `${MOUNT_PREFIX}/console`;

export type Route =
  | { page: "assistants" }
  | { page: "assistant"; assistantId: string }
  | { page: "playground"; assistantId: string | null; threadId: string | null }
  | { page: "threads" }
  | { page: "thread"; threadId: string }
  | { page: "traces" }
  | { page: "trace"; traceId: string; runId: string | null }
  | { page: "usage" }
  | { page: "crons" }
  | { page: "memory" }
  | { page: "prices" }
  | { page: "not-found"; path: string };

/** Every page's name; the every-page layout test visits one of each. */
export type PageName = Route["page"];

export function parseRoute(pathname: string, search: string): Route {
  const params = new URLSearchParams(search);
  // The front door: `/`, or the prefix with or without its slash.
  const isFrontDoor = pathname === `${MOUNT_PREFIX}/` || (MOUNT_PREFIX !== "" && pathname === MOUNT_PREFIX);
  const inside = isFrontDoor ? "" : pathname.startsWith(`${CONSOLE_BASE}/`) || pathname === CONSOLE_BASE ? pathname.slice(CONSOLE_BASE.length) : null;
  if (inside === null) return { page: "not-found", path: pathname };
  const [section = "", id, ...rest] = inside.split("/").filter(Boolean).map(safeDecode);
  if (rest.length > 0) return { page: "not-found", path: pathname };
  switch (section) {
    case "":
    case "assistants":
      return id ? { page: "assistant", assistantId: id } : { page: "assistants" };
    case "playground":
      return id ? { page: "not-found", path: pathname } : { page: "playground", assistantId: params.get("assistant"), threadId: params.get("thread") };
    case "threads":
      return id ? { page: "thread", threadId: id } : { page: "threads" };
    case "traces":
      return id ? { page: "trace", traceId: id, runId: params.get("run") } : { page: "traces" };
    case "usage":
      return id ? { page: "not-found", path: pathname } : { page: "usage" };
    case "crons":
      return id ? { page: "not-found", path: pathname } : { page: "crons" };
    case "memory":
      return id ? { page: "not-found", path: pathname } : { page: "memory" };
    case "prices":
      return id ? { page: "not-found", path: pathname } : { page: "prices" };
    default:
      return { page: "not-found", path: pathname };
  }
}

export function routePath(route: Route): string {
  const withQuery = (path: string, query: Record<string, string | null>) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
    const text = params.toString();
    return text ? `${path}?${text}` : path;
  };
  switch (route.page) {
    case "assistants":
      return `${CONSOLE_BASE}/assistants`;
    case "assistant":
      return `${CONSOLE_BASE}/assistants/${encodeURIComponent(route.assistantId)}`;
    case "playground":
      return withQuery(`${CONSOLE_BASE}/playground`, { assistant: route.assistantId, thread: route.threadId });
    case "threads":
      return `${CONSOLE_BASE}/threads`;
    case "thread":
      return `${CONSOLE_BASE}/threads/${encodeURIComponent(route.threadId)}`;
    case "traces":
      return `${CONSOLE_BASE}/traces`;
    case "trace":
      return withQuery(`${CONSOLE_BASE}/traces/${encodeURIComponent(route.traceId)}`, { run: route.runId });
    case "usage":
      return `${CONSOLE_BASE}/usage`;
    case "crons":
      return `${CONSOLE_BASE}/crons`;
    case "memory":
      return `${CONSOLE_BASE}/memory`;
    case "prices":
      return `${CONSOLE_BASE}/prices`;
    case "not-found":
      return route.path;
  }
}

/** Which navigation entry a page belongs to. */
export function sectionOf(route: Route): "assistants" | "playground" | "threads" | "traces" | "usage" | "crons" | "memory" | "prices" | null {
  switch (route.page) {
    case "assistants":
    case "assistant":
      return "assistants";
    case "playground":
      return "playground";
    case "threads":
    case "thread":
      return "threads";
    case "traces":
    case "trace":
      return "traces";
    case "usage":
      return "usage";
    case "crons":
      return "crons";
    case "memory":
      return "memory";
    case "prices":
      return "prices";
    case "not-found":
      return null;
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
