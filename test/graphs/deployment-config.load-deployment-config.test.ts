import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyDeploymentEnv, loadDeploymentConfig, splitGraphSpec } from "../../src/graphs/deployment-config.js";
import { FIXTURES_DIR, fixturePath } from "./registry-test-helpers.js";

describe("loadDeploymentConfig", () => {
  const tempDirs: string[] = [];
  afterEach(() => {
    for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function writeConfig(contents: string): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), "hangar-config-"));
    tempDirs.push(dir);
    const file = path.join(dir, "langgraph.json");
    writeFileSync(file, contents);
    return file;
  }

  it("resolves graphs against the config directory, in config order", () => {
    const config = loadDeploymentConfig(fixturePath("valid.langgraph.json"));
    expect(config.graphs.map((graph) => graph.graphId)).toEqual(["compiled", "builder", "factory"]);
    expect(config.graphs[0]).toEqual({
      graphId: "compiled",
      spec: "./compiled-graph.ts:graph",
      modulePath: path.join(FIXTURES_DIR, "compiled-graph.ts"),
      exportName: "graph",
    });
    expect(config.graphs[1].exportName).toBe("default");
    expect(config.graphs[2]).toMatchObject({ exportName: "makeGraph", description: "built per run" });
    expect(config.http?.cors).toEqual({ allow_origins: ["*"] });
    expect(config.extra).toEqual({ node_version: "20" });
  });

  it("reads env from a .env file relative to the config", () => {
    const config = loadDeploymentConfig(fixturePath("env-file.langgraph.json"));
    expect(config.env).toEqual({ HANGAR_FIXTURE_FILE_A: "alpha", HANGAR_FIXTURE_FILE_B: "quoted value" });
  });

  it("applies env without overriding variables that are already set", () => {
    const config = loadDeploymentConfig(fixturePath("valid.langgraph.json"));
    const target: NodeJS.ProcessEnv = { HANGAR_FIXTURE_PRESET: "from-operator" };
    expect(applyDeploymentEnv(config, target)).toEqual(["HANGAR_FIXTURE_INLINE"]);
    expect(target).toEqual({ HANGAR_FIXTURE_PRESET: "from-operator", HANGAR_FIXTURE_INLINE: "from-config" });
  });

  it("names the file and the problem for invalid configs", () => {
    const missing = path.join(os.tmpdir(), "hangar-no-such-dir", "langgraph.json");
    expect(() => loadDeploymentConfig(missing)).toThrow(`Invalid deployment config ${missing}: cannot read file`);

    const notJson = writeConfig("{ graphs: ");
    expect(() => loadDeploymentConfig(notJson)).toThrow(new RegExp(`${notJson}: not valid JSON`));

    const noGraphs = writeConfig(JSON.stringify({ env: {} }));
    expect(() => loadDeploymentConfig(noGraphs)).toThrow(new RegExp(`${noGraphs}: graphs: `));

    const emptyGraphs = writeConfig(JSON.stringify({ graphs: {} }));
    expect(() => loadDeploymentConfig(emptyGraphs)).toThrow("must declare at least one graph");

    const badEnv = writeConfig(JSON.stringify({ graphs: { a: "./a.ts" }, env: ["X=1"] }));
    expect(() => loadDeploymentConfig(badEnv)).toThrow(new RegExp(`${badEnv}: env: `));

    // An env path that is a directory cannot be read: that is a broken deployment, not a missing file.
    const envIsDirectory = writeConfig(JSON.stringify({ graphs: { a: "./a.ts" }, env: "." }));
    expect(() => loadDeploymentConfig(envIsDirectory)).toThrow(/env file .* cannot be read/);
  });

  it("starts without a missing .env file, with a warning naming it (templates ship only .env.example)", () => {
    const file = writeConfig(JSON.stringify({ graphs: { a: "./a.ts" }, env: ".env" }));
    writeFileSync(path.join(path.dirname(file), ".env.example"), "OPENAI_API_KEY=\n");
    const config = loadDeploymentConfig(file);
    expect(config.env).toEqual({});
    expect(config.warnings).toEqual([`env file ${path.join(path.dirname(file), ".env")} (langgraph.json "env") does not exist; starting without it`]);
    expect(loadDeploymentConfig(fixturePath("env-file.langgraph.json")).warnings).toEqual([]);
  });
});

describe("splitGraphSpec", () => {
  it("splits path and export, defaulting to the default export", () => {
    expect(splitGraphSpec("./agent.ts:graph")).toEqual({ modulePath: "./agent.ts", exportName: "graph" });
    expect(splitGraphSpec("./agent.ts")).toEqual({ modulePath: "./agent.ts", exportName: "default" });
    expect(splitGraphSpec("./agent.ts:")).toEqual({ modulePath: "./agent.ts", exportName: "default" });
    expect(splitGraphSpec("C:\\graphs\\agent.ts")).toEqual({ modulePath: "C:\\graphs\\agent.ts", exportName: "default" });
    expect(splitGraphSpec("C:\\graphs\\agent.ts:graph")).toEqual({ modulePath: "C:\\graphs\\agent.ts", exportName: "graph" });
  });
});
