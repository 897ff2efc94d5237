import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createStaticSchemaCache } from "../../src/graphs/static-schemas/static-schema-cache.js";
import type { StaticSchemasResult } from "../../src/graphs/static-schemas/extract-static-schemas.js";

let directory: string;
let graphModule: string;
let declarations: string;

beforeEach(() => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), "hangar-schema-cache-"));
  graphModule = path.join(directory, "graph.ts");
  declarations = path.join(directory, "types.d.ts");
  fs.writeFileSync(graphModule, "export const graph = 1;");
  fs.writeFileSync(declarations, "export type Answer = string;");
});
afterEach(() => fs.rmSync(directory, { recursive: true, force: true }));

const result = (): StaticSchemasResult => ({
  graphs: [{ state: { type: "object", properties: { answer: { type: "string" } } }, input: null, output: null, config: null, subgraphs: {} }],
  sourceFiles: [graphModule, declarations],
});

describe("the schema cache", () => {
  it("answers what was written while every file the compiler read is unchanged", async () => {
    const cache = createStaticSchemaCache(path.join(directory, "cache"));
    const requests = [{ modulePath: graphModule, exportName: "graph" }];
    expect(await cache.read(requests)).toBeNull();
    await cache.write(requests, result());
    expect(await cache.read(requests)).toEqual(result().graphs);
    // Another export of the same module is another entry.
    expect(await cache.read([{ modulePath: graphModule, exportName: "other" }])).toBeNull();
  });

  it("misses once any of those files changed, or is gone", async () => {
    const cache = createStaticSchemaCache(path.join(directory, "cache"));
    const requests = [{ modulePath: graphModule, exportName: "graph" }];
    await cache.write(requests, result());
    fs.writeFileSync(declarations, "export type Answer = number | null;");
    expect(await cache.read(requests)).toBeNull();

    await cache.write(requests, result());
    expect(await cache.read(requests)).not.toBeNull();
    fs.rmSync(declarations);
    expect(await cache.read(requests)).toBeNull();
  });

  it("a broken entry is a miss, not an error", async () => {
    const cacheDirectory = path.join(directory, "cache");
    const cache = createStaticSchemaCache(cacheDirectory);
    const requests = [{ modulePath: graphModule, exportName: "graph" }];
    await cache.write(requests, result());
    for (const name of fs.readdirSync(cacheDirectory)) fs.writeFileSync(path.join(cacheDirectory, name), "{not json");
    expect(await cache.read(requests)).toBeNull();
  });
});
