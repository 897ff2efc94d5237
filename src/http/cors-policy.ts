import { cors } from "hono/cors";
import { z } from "zod";

/**
 * CORS from the deployment config's `http.cors` (langgraph.json keys). Without one, any origin
 * may call the API, as LangGraph's own servers allow, so browser chat UIs work out of the box;
 * API keys still apply. The pagination header is exposed so browser SDK clients can page, and
 * MCP's session header so browser MCP clients can keep their session.
 */
const CorsConfig = z.object({
  allow_origins: z.array(z.string()).optional(),
  allow_methods: z.array(z.string()).optional(),
  allow_headers: z.array(z.string()).optional(),
  allow_credentials: z.boolean().optional(),
  expose_headers: z.array(z.string()).optional(),
  max_age: z.number().int().nonnegative().optional(),
});

// Mcp-Session-Id: browser MCP clients must read it to continue their session.
const ALWAYS_EXPOSED = ["X-Pagination-Next", "Content-Location", "Location", "Mcp-Session-Id"];

export function corsMiddleware(corsConfig: unknown) {
  const parsed = CorsConfig.safeParse(corsConfig ?? {});
  if (!parsed.success) {
    throw new Error(`Invalid http.cors in the deployment config: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`);
  }
  const options = parsed.data;
  return cors({
    origin: options.allow_origins ?? "*",
    allowMethods: options.allow_methods,
    allowHeaders: options.allow_headers,
    credentials: options.allow_credentials,
    exposeHeaders: [...ALWAYS_EXPOSED, ...(options.expose_headers ?? [])],
    maxAge: options.max_age,
  });
}
