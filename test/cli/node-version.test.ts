import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { nodeVersionProblem, REQUIRED_NODE_VERSION } from "../../src/node-version.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** An older Node on this machine (Debian's is 20), if any: the real run below needs one. */
function olderNode(): string | null {
  for (const candidate of [process.env.HANGAR_TEST_OLD_NODE, "/usr/bin/node", "/usr/local/bin/node"]) {
    if (!candidate || !fs.existsSync(candidate)) continue;
    const version = spawnSync(candidate, ["--version"], { encoding: "utf8" }).stdout.trim();
    if (nodeVersionProblem(version) !== null) return candidate;
  }
  return null;
}

describe("Node.js version check", () => {
  it("names the required version, the one found and how to install it", () => {
    const problem = nodeVersionProblem("v20.19.2");
    expect(problem).toContain(`Hangar needs Node.js ${REQUIRED_NODE_VERSION} or newer (found v20.19.2); install it with`);
    expect(problem).toMatch(/nvm/);
    expect(nodeVersionProblem("22.22.2")).toMatch(/found v22\.22\.2/);
    expect(nodeVersionProblem("22.15.0")).not.toBeNull();
  });

  it("accepts the required version and newer ones", () => {
    for (const version of ["22.22.3", "v22.22.3", "22.23.0", "23.0.0", "24.11.1", "v25.0.0-nightly2026"]) {
      expect(nodeVersionProblem(version), version).toBeNull();
    }
  });

  it("matches package.json engines, .nvmrc and .node-version", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(`>=${REQUIRED_NODE_VERSION}`);
    expect(fs.readFileSync(path.join(root, ".nvmrc"), "utf8").trim()).toBe(REQUIRED_NODE_VERSION);
    expect(fs.readFileSync(path.join(root, ".node-version"), "utf8").trim()).toBe(REQUIRED_NODE_VERSION);
  });

  const oldNode = olderNode();
  it.runIf(oldNode !== null)("the built CLI on an older Node prints the message and exits 1", () => {
    const built = path.join(root, "dist/src/cli.js");
    expect(fs.existsSync(built), "npm run build first").toBe(true);
    for (const args of [["--version"], ["serve", "--port", "0"]]) {
      const result = spawnSync(oldNode as string, [built, ...args], { cwd: root, encoding: "utf8", env: { ...process.env, DATABASE_URL: "" } });
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/^Hangar needs Node\.js 22\.22\.3 or newer \(found v\d+\.\d+\.\d+\); install it with/);
      expect(result.stdout).toBe("");
    }
  });
});
