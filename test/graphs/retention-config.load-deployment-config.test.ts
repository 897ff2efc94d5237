import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadDeploymentConfig } from "../../src/graphs/deployment-config.js";
import { createGraphModuleLoader } from "../../src/graphs/graph-module-loader.js";
import { loadStoreIndex } from "../../src/graphs/store-embeddings.js";

// langgraph.json `store` and `checkpointer`: parsed with defaults, bad values named.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function configWith(extra: Record<string, unknown>, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "hangar-retention-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "graph.ts"), "export const graph = {};\n");
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const file = path.join(dir, "langgraph.json");
  writeFileSync(file, JSON.stringify({ graphs: { g: "./graph.ts:graph" }, ...extra }));
  return file;
}

describe("store and checkpointer settings", () => {
  it("defaults: no index, no default TTLs, refresh on read, hourly sweeps", () => {
    const config = loadDeploymentConfig(configWith({}));
    expect(config.store).toEqual({ index: null, ttl: { defaultTtlMinutes: null, refreshOnRead: true, sweepIntervalMinutes: 60 } });
    expect(config.checkpointer).toEqual({ ttl: { strategy: "delete", defaultTtlMinutes: null, sweepIntervalMinutes: 60 } });
    expect(config.extra).toEqual({});
  });

  it("reads store.index, store.ttl and checkpointer.ttl as LangGraph Platform writes them", () => {
    const config = loadDeploymentConfig(
      configWith({
        store: {
          index: { embed: "openai:text-embedding-3-small", dims: 1536, fields: ["text", "tags[*]"] },
          ttl: { default_ttl: 10080, refresh_on_read: false, sweep_interval_minutes: 5 },
        },
        checkpointer: { ttl: { strategy: "delete", default_ttl: 43200, sweep_interval_minutes: 10 } },
      }),
    );
    expect(config.store).toEqual({
      index: { embed: "openai:text-embedding-3-small", dims: 1536, fields: ["text", "tags[*]"] },
      ttl: { defaultTtlMinutes: 10080, refreshOnRead: false, sweepIntervalMinutes: 5 },
    });
    expect(config.checkpointer.ttl).toEqual({ strategy: "delete", defaultTtlMinutes: 43200, sweepIntervalMinutes: 10 });
  });

  it.each([
    [{ store: { index: { embed: "openai:x" } } }, /store\.index\.dims/],
    [{ store: { index: { embed: "openai:x", dims: -3 } } }, /store\.index\.dims/],
    [{ store: { ttl: { default_ttl: 0 } } }, /store\.ttl\.default_ttl/],
    [{ store: { ttl: { refresh_on_reed: true } } }, /store\.ttl/],
    [{ checkpointer: { ttl: { strategy: "archive" } } }, /checkpointer\.ttl\.strategy/],
  ])("names the bad setting: %j", (extra, problem) => {
    expect(() => loadDeploymentConfig(configWith(extra))).toThrow(problem);
  });

  it("loads an embed function from a module next to langgraph.json; refuses unknown providers", async () => {
    const withModule = loadDeploymentConfig(
      configWith(
        { store: { index: { embed: "./embed.ts:embed", dims: 2 } } },
        { "embed.ts": "export async function embed(texts: string[]) { return texts.map((t) => [t.length, 1]); }\n" },
      ),
    );
    const index = await loadStoreIndex(withModule, createGraphModuleLoader(withModule.path));
    expect(index).toMatchObject({ dims: 2, fields: ["$"], provider: "./embed.ts:embed" });
    expect(await index!.embeddings.embedDocuments(["abc", "de"])).toEqual([[3, 1], [2, 1]]);
    expect(await index!.embeddings.embedQuery("abcd")).toEqual([4, 1]);

    const unknown = loadDeploymentConfig(configWith({ store: { index: { embed: "cohere:embed-v3", dims: 2 } } }));
    await expect(loadStoreIndex(unknown, createGraphModuleLoader(unknown.path))).rejects.toThrow(/store\.index\.embed "cohere:embed-v3".*openai:<model>/);
    const missing = loadDeploymentConfig(configWith({ store: { index: { embed: "./nope.ts:embed", dims: 2 } } }));
    await expect(loadStoreIndex(missing, createGraphModuleLoader(missing.path))).rejects.toThrow(/Cannot load store\.index\.embed "\.\/nope\.ts:embed"/);
  });
});
