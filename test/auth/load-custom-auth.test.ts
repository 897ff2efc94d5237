import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadCustomAuth } from "../../src/auth/load-custom-auth.js";
import { loadDeploymentConfig } from "../../src/graphs/deployment-config.js";
import { reviewDeploymentKeys } from "../../src/graphs/deployment-keys.js";
import { createGraphModuleLoader } from "../../src/graphs/graph-module-loader.js";
import { createLogger } from "../../src/logger.js";

// Start-up never runs open by accident: what langgraph.json asks of auth is loaded, or start-up
// stops naming the file or key.
const log = createLogger("silent");
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A deployment folder with a langgraph.json and the given module files. */
function deployment(config: Record<string, unknown>, files: Record<string, string> = {}) {
  const dir = mkdtempSync(path.join(process.cwd(), "test/.tmp-auth-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "langgraph.json"), JSON.stringify({ graphs: { g: "./g.ts:graph" }, ...config }));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const parsed = loadDeploymentConfig(path.join(dir, "langgraph.json"));
  return { parsed, load: () => loadCustomAuth(parsed, createGraphModuleLoader(parsed.path), log) };
}

const AUTH_MODULE = `import { Auth } from "@langchain/langgraph-sdk/auth";
export const auth = new Auth().authenticate(() => "someone").on("threads:create", () => ({ owner: "someone" }));
export const notAuth = { authenticate() {} };`;

describe("loadCustomAuth", () => {
  it("loads the Auth instance of auth.path with its handlers", async () => {
    const handlers = await deployment({ auth: { path: "./auth.ts:auth" } }, { "auth.ts": AUTH_MODULE }).load();
    expect(typeof handlers?.authenticate).toBe("function");
    expect(Object.keys(handlers?.callbacks ?? {})).toEqual(["threads:create"]);
  });

  it("keeps authenticate results when auth.cache is set", async () => {
    const handlers = await deployment({ auth: { path: "./auth.ts:auth", cache: { ttl_seconds: 5 } } }, { "auth.ts": AUTH_MODULE }).load();
    expect(handlers?.resultCache).toBeDefined();
    expect((await deployment({ auth: { path: "./auth.ts:auth" } }, { "auth.ts": AUTH_MODULE }).load())?.resultCache).toBeUndefined();
  });

  it("returns null without auth, or with auth settings but no path", async () => {
    expect(await deployment({}).load()).toBeNull();
    expect(await deployment({ auth: { disable_studio_auth: true } }).load()).toBeNull();
  });

  it("stops start-up naming the file when the module does not load or the export is not an Auth", async () => {
    await expect(deployment({ auth: { path: "./missing.ts:auth" } }).load()).rejects.toThrow(/auth\.path "\.\/missing\.ts:auth".*missing\.ts/);
    await expect(deployment({ auth: { path: "./auth.ts:nope" } }, { "auth.ts": AUTH_MODULE }).load()).rejects.toThrow(/no export "nope"/);
    await expect(deployment({ auth: { path: "./auth.ts:notAuth" } }, { "auth.ts": AUTH_MODULE }).load()).rejects.toThrow(
      /export "notAuth" is not an Auth instance/,
    );
  });

  it("refuses auth settings it does not implement, naming the key", async () => {
    await expect(deployment({ auth: { path: "./auth.ts:auth", cache: { ttl_seconds: 5, evict: "lru" } } }).load()).rejects.toThrow(
      /auth\.cache: .*evict/,
    );
    await expect(deployment({ auth: { path: "./auth.ts:auth", sessions: true } }).load()).rejects.toThrow(/auth: .*sessions/);
    await expect(deployment({ auth: "./auth.ts:auth" }).load()).rejects.toThrow(/auth/);
  });
});

describe("reviewDeploymentKeys", () => {
  it("names the keys Hangar ignores, and none it honours", () => {
    const honoured = { app: "./app.ts:app", enable_custom_route_auth: true, mount_prefix: "/api", middleware_order: "auth_first" };
    expect(reviewDeploymentKeys(deployment({ http: honoured }).parsed).ignored).toEqual([]);
    const { ignored } = reviewDeploymentKeys(
      deployment({ node_version: "20", ui: { g: "./ui.tsx" }, http: { cors: {}, configurable_headers: {}, future_key: true } }).parsed,
    );
    expect(ignored).toEqual([
      "node_version (a build setting of langgraph-cli)",
      "http.future_key (not implemented by Hangar)",
    ]);
  });

  it("honours webhooks and encryption (graphs/load-encryption.ts refuses the handlers it does not implement)", () => {
    const review = reviewDeploymentKeys(
      deployment({ webhooks: { url: { require_https: true } }, encryption: { path: "./encryption.ts:encryption" } }).parsed,
    );
    expect(review.ignored).toEqual([]);
    expect(review.refused).toEqual([]);
  });
});
