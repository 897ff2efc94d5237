import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

const API_KEY = "console-static-key";
const INDEX_HTML = '<!doctype html><title>Hangar</title><script type="module" src="/console/assets/app-1a2b3c.js"></script>';
const SCRIPT = `console.log(${JSON.stringify("x".repeat(4096))});`;

let workDir: string;
let consoleDir: string;
let server: TestServer;

/** A request without the API key: the console's files must not need one, the API must. */
const anonymous = (pathname: string, init: RequestInit = {}) => fetch(`${server.url}${pathname}`, init);

beforeAll(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), "hangar-console-static-"));
  consoleDir = path.join(workDir, "web");
  await fs.mkdir(path.join(consoleDir, "assets"), { recursive: true });
  // Beside the build, not in it: reachable only by escaping the directory.
  await fs.writeFile(path.join(workDir, "secret.txt"), "not for the web");
  await fs.writeFile(path.join(consoleDir, "index.html"), INDEX_HTML);
  await fs.writeFile(path.join(consoleDir, "assets", "app-1a2b3c.js"), SCRIPT);
  await fs.writeFile(path.join(consoleDir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  server = await startTestServer({ apiKeys: [API_KEY], env: { HANGAR_CONSOLE_DIR: consoleDir } });
});

afterAll(async () => {
  await server?.close();
  await fs.rm(workDir, { recursive: true, force: true });
});

describe("the web console's static files", () => {
  it("answers index.html at / and for client routes, without a key, revalidated on every load", async () => {
    for (const pathname of ["/", "/console", "/console/assistants", "/console/traces/0b7c2f0e-1d2a-4c55-9f7e-000000000000"]) {
      const response = await anonymous(pathname);
      expect(response.status, pathname).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(await response.text()).toBe(INDEX_HTML);
    }
  });

  it("serves hashed assets as immutable and other files as revalidated, with ETags", async () => {
    const script = await anonymous("/console/assets/app-1a2b3c.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await script.text()).toBe(SCRIPT);

    const icon = await anonymous("/console/favicon.svg");
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(icon.headers.get("cache-control")).toBe("no-cache");
    const etag = icon.headers.get("etag")!;
    const revalidated = await anonymous("/console/favicon.svg", { headers: { "if-none-match": etag } });
    expect(revalidated.status).toBe(304);
  });

  it("compresses text files for clients that accept gzip", async () => {
    const response = await anonymous("/console/assets/app-1a2b3c.js", { headers: { "accept-encoding": "gzip" } });
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(await response.text()).toBe(SCRIPT); // fetch decodes it
  });

  it("answers 404 for missing files and for paths that escape the build directory", async () => {
    expect((await anonymous("/console/assets/gone-123.js")).status).toBe(404);
    // %2f is no separator to the URL parser, so this reaches the server as one segment.
    expect((await anonymous("/console/..%2fsecret.txt")).status).toBe(404);
    expect((await anonymous("/console/assets/..%2f..%2fsecret.txt")).status).toBe(404);
    expect((await anonymous("/console/%E0%A4%A")).status).toBe(404);
  });

  it("shadows no API path: they still need the key and answer as before", async () => {
    // /ok and /info are open, as on LangGraph's server (clients probe them before they hold credentials).
    expect((await anonymous("/ok")).status).toBe(200);
    expect((await anonymous("/info")).status).toBe(200);
    for (const pathname of ["/graphql", "/assistants/search", "/threads/search", "/runs", "/tracing/info"]) {
      expect((await anonymous(pathname)).status, pathname).toBe(401);
    }
    const search = await server.request("/assistants/search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(search.status).toBe(200);
    expect(Array.isArray(await search.json())).toBe(true);
    const graphql = await server.request("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(await graphql.json()).toEqual({ data: { __typename: "Query" } });
    // Compression is the console's alone: API responses (and SSE streams) are left as they were.
    const info = await server.request("/info", { headers: { "accept-encoding": "gzip" } });
    expect(info.headers.get("content-encoding")).toBeNull();
  });
});

describe("without a built console", () => {
  it("answers / with how to build it instead of failing", async () => {
    const unbuilt = await startTestServer({ env: { HANGAR_CONSOLE_DIR: path.join(consoleDir, "missing") } });
    try {
      const response = await fetch(`${unbuilt.url}/`);
      expect(response.status).toBe(503);
      expect(await response.text()).toContain("npm run build");
      expect((await fetch(`${unbuilt.url}/console/threads`)).status).toBe(503);
      expect((await fetch(`${unbuilt.url}/ok`)).status).toBe(200);
    } finally {
      await unbuilt.close();
    }
  });
});
