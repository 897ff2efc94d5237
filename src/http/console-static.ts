import { createReadStream, type Stats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { Context, Hono } from "hono";
import { compress } from "hono/compress";
import type { Logger } from "../logger.js";
import type { HttpEnv } from "./http-env.js";

/**
 * The console's client routes and files live under this prefix, which no API path uses, so the
 * SPA fallback can never answer for /graphql, /info, /assistants, /threads, /runs or /tracing.
 * Only `/` itself is served outside it (the console's front door).
 */
export const CONSOLE_BASE = "/console";

// Vite writes content-hashed files here: a changed file gets a new name, so they never go stale.
const HASHED_ASSETS_DIR = "assets/";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".map": "application/json",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

// Trace messages may show images from anywhere (URLs or inline data), the console talks to its
// own origin only (HTTP and graphql-ws), and nothing may frame it.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "connect-src 'self' ws: wss:",
  "img-src 'self' data: blob: http: https:",
  "style-src 'self' 'unsafe-inline'",
  "frame-ancestors 'none'",
].join("; ");

const notBuiltPage = (prefix: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hangar</title></head>
<body style="font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem">
<h1>The Hangar console is not built</h1>
<p>Run <code>npm run build</code> (it builds the console into <code>dist/web</code>), or point
<code>HANGAR_CONSOLE_DIR</code> at a built console, then reload this page.</p>
<p>The API works without it: GraphQL at <a href="${prefix}/graphql">${prefix}/graphql</a>, the REST API, and
<a href="${prefix}/ok">${prefix}/ok</a>.</p>
</body></html>`;

/**
 * Serves the built web console without an API key (the console asks for one itself): `/` and
 * every `/console/...` client route answer index.html (revalidated on every load), files under
 * `/console/` are served from `directory` (hashed assets cached for a year). A missing build
 * answers a page that says how to build it. Must be mounted before the API-key middleware.
 * The console is built once for any `http.mount_prefix`: its asset URLs are relative, and the
 * index.html served here names its base (`<base href>`) and the prefix (a meta tag the console
 * reads for its GraphQL URL and its routes).
 */
export function mountConsole(app: Hono<HttpEnv>, directory: string, log: Logger, mountPrefix: string): void {
  const root = path.resolve(directory);
  fs.access(path.join(root, "index.html")).catch(() =>
    log.warn({ consoleDir: root }, "the web console is not built (npm run build); / answers how to build it"),
  );
  const serve = (c: Context<HttpEnv>) => serveConsolePath(c, root, mountPrefix);
  app.use("/", compress());
  app.use(`${CONSOLE_BASE}/*`, compress());
  app.get("/", serve);
  app.get(CONSOLE_BASE, serve);
  app.get(`${CONSOLE_BASE}/*`, serve);
}

async function serveConsolePath(c: Context<HttpEnv>, root: string, mountPrefix: string): Promise<Response> {
  const relative = consoleRelativePath(c.req.path);
  if (relative === null) return c.text("Not found", 404);
  // index.html is answered below, with its base and prefix in place.
  if (relative !== "" && relative !== "index.html") {
    const target = path.resolve(root, relative);
    // path.resolve has already folded any `..`; whatever lands outside the build is not ours.
    if (!target.startsWith(root + path.sep)) return c.text("Not found", 404);
    const stats = await fs.stat(target).catch(() => null);
    if (stats?.isFile()) {
      const cacheControl = relative.startsWith(HASHED_ASSETS_DIR) ? "public, max-age=31536000, immutable" : "no-cache";
      return fileResponse(c, target, stats, cacheControl);
    }
    // A missing file must stay a 404: answering HTML for a script breaks the page obscurely.
    if (path.extname(relative) !== "") return c.text("Not found", 404);
  }
  const index = path.join(root, "index.html");
  const stats = await fs.stat(index).catch(() => null);
  if (!stats?.isFile()) {
    return c.html(notBuiltPage(mountPrefix), 503, { "Cache-Control": "no-store" });
  }
  return indexResponse(c, index, stats, mountPrefix);
}

/**
 * index.html with its relative asset URLs (Vite's `base: "./"`) made absolute under the prefix,
 * for every client route's depth, and the prefix in a meta tag for the console's script
 * (web/src/lib/mount-prefix.ts). No `<base>` element: it would also move the page's `#` links.
 */
async function indexResponse(c: Context<HttpEnv>, index: string, stats: Stats, mountPrefix: string): Promise<Response> {
  // The prefix is validated as plain path segments (graphs/deployment-config.ts): nothing to escape.
  const html = (await fs.readFile(index, "utf8"))
    .replaceAll(/ (src|href)="\.\//g, ` $1="${mountPrefix}${CONSOLE_BASE}/`)
    .replace("<head>", `<head>\n    <meta name="hangar-mount-prefix" content="${mountPrefix}" />`);
  const headers = pageHeaders(`W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}${mountPrefix}"`, "no-cache");
  headers["Content-Type"] = CONTENT_TYPES[".html"]!;
  if (c.req.header("if-none-match") === headers.ETag) return c.body(null, 304, headers);
  if (c.req.method === "HEAD") return c.body(null, 200, { ...headers, "Content-Length": String(Buffer.byteLength(html)) });
  return c.body(html, 200, headers);
}

function pageHeaders(etag: string, cacheControl: string): Record<string, string> {
  return {
    "Cache-Control": cacheControl,
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Referrer-Policy": "no-referrer",
  };
}

/** `/console/a/b` → `a/b`, `/` and `/console` → "", null for an undecodable path. */
function consoleRelativePath(requestPath: string): string | null {
  if (requestPath === "/" || requestPath === CONSOLE_BASE) return "";
  try {
    return decodeURIComponent(requestPath.slice(CONSOLE_BASE.length + 1));
  } catch {
    return null;
  }
}

function fileResponse(c: Context<HttpEnv>, file: string, stats: Stats, cacheControl: string): Response {
  const etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
  const headers: Record<string, string> = {
    "Content-Type": CONTENT_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream",
    "Cache-Control": cacheControl,
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
  };
  if (c.req.header("if-none-match") === etag) return c.body(null, 304, headers);
  if (c.req.method === "HEAD") return c.body(null, 200, { ...headers, "Content-Length": String(stats.size) });
  const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
  return c.body(body, 200, headers);
}
