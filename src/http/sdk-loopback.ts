import type { Hono } from "hono";
import type { HttpEnv } from "./http-env.js";
import { withMountPrefix } from "./mount-prefix.js";

/**
 * The SDK's in-process loopback: `new Client()` without an `apiUrl`, in a graph or a custom route,
 * sends its requests through `globalThis[Symbol.for("langgraph_api:fetch")]` when a server has
 * registered one there (the SDK's client reads that symbol; LangGraph's server registers it the
 * same way). Requests go through the whole app, authentication included, without a socket.
 * The SDK knows nothing of `http.mount_prefix`: its paths get the prefix here.
 * Returns the unregistration, which leaves a newer server's registration alone.
 */
const LOOPBACK_FETCH = Symbol.for("langgraph_api:fetch");

type LoopbackFetch = (url: string, init?: RequestInit) => Promise<Response>;

export function registerSdkLoopback(app: Hono<HttpEnv>, mountPrefix: string): () => void {
  const registry = globalThis as unknown as Record<symbol, LoopbackFetch | undefined>;
  const loopback: LoopbackFetch = async (url, init) => app.request(withMountPrefix(url, mountPrefix), init);
  registry[LOOPBACK_FETCH] = loopback;
  return () => {
    if (registry[LOOPBACK_FETCH] === loopback) delete registry[LOOPBACK_FETCH];
  };
}
