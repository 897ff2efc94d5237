import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Layers point one way (STYLE §2, §8.42): domain ← db ← services ← transports ← the process
 * entry. A file may import its own layer or a lower one, never a higher one. Types several layers
 * share live in domain/.
 */
const LAYERS: Record<string, number> = {
  // 0: pure rules and shapes, no I/O. tracing/ holds the pure trace maths (normalizers, prices,
  // message rendering, LangSmith wire parsing); recording traces is a service.
  domain: 0,
  tracing: 0,
  "config.ts": 0,
  "logger.ts": 0,
  "version.ts": 0,
  "node-version.ts": 0,
  // 1: storage.
  db: 1,
  // 2: the service layer and what it runs on (graphs, the event bus, authorization, models).
  services: 2,
  auth: 2,
  graphs: 2,
  streaming: 2,
  // The streaming protocol v2 session: commands and the channel mapping, on the services.
  protocol: 2,
  models: 2,
  // Prometheus metrics: counted by services and transports, read at scrape time.
  metrics: 2,
  // 3: transports and background processes that call services.
  "runtime.ts": 3,
  rest: 3,
  graphql: 3,
  http: 3,
  mcp: 3,
  a2a: 3,
  worker: 3,
  cron: 3,
  retention: 3,
  webhooks: 3,
  // 4: the process entry.
  "main.ts": 4,
  "cli.ts": 4,
  "cli-commands.ts": 4,
  "heap-growth.ts": 4,
  "dev-mode.ts": 4,
};

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src");
const IMPORT = /(?:^|\s)(?:import|export)\s[^"';]*?from\s*"(\.{1,2}\/[^"]+)"|import\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

function layerOf(file: string): number | undefined {
  const top = path.relative(SRC, file).split(path.sep)[0]!;
  return LAYERS[top.replace(/\.js$/, ".ts")];
}

describe("layers point one way", () => {
  const files = sourceFiles(SRC);

  it("every file under src/ belongs to a layer", () => {
    expect(files.filter((file) => layerOf(file) === undefined).map((file) => path.relative(SRC, file))).toEqual([]);
  });

  it("no file imports from a higher layer", () => {
    const upward: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(file, "utf8");
      for (const match of text.matchAll(IMPORT)) {
        const target = path.resolve(path.dirname(file), match[1] ?? match[2]!);
        const from = layerOf(file)!;
        const to = layerOf(target);
        if (to !== undefined && to > from) upward.push(`${path.relative(SRC, file)} (${from}) imports ${path.relative(SRC, target)} (${to})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("finds imports of every form it checks (the scan itself works)", () => {
    const sample = `import { a } from "../x.js";\nimport type { B } from "./y.js";\nexport { c } from "../z.js";\nconst d = await import("./w.js");`;
    expect([...sample.matchAll(IMPORT)].map((match) => match[1] ?? match[2])).toEqual(["../x.js", "./y.js", "../z.js", "./w.js"]);
  });
});
