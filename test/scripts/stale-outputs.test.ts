import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { staleReason } from "../../scripts/stale-outputs.js";

// The decision `npm start` (scripts/build.ts) makes before running Vite: skip the console build
// when nothing under web/ (nor the lockfile) changed since dist/web/index.html was written.
describe("staleReason", () => {
  let dir: string;
  let web: string;
  let lockfile: string;
  let output: string;
  const past = new Date(Date.now() - 60_000);
  const later = new Date(Date.now() + 60_000);

  const age = (file: string, when: Date) => fs.utimesSync(file, when, when);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "hangar-stale-"));
    web = path.join(dir, "web");
    fs.mkdirSync(path.join(web, "src"), { recursive: true });
    fs.writeFileSync(path.join(web, "src", "main.tsx"), "export {};\n");
    lockfile = path.join(dir, "package-lock.json");
    fs.writeFileSync(lockfile, "{}\n");
    for (const file of [path.join(web, "src", "main.tsx"), path.join(web, "src"), web, lockfile]) age(file, past);
    output = path.join(dir, "dist", "index.html");
    fs.mkdirSync(path.dirname(output));
    fs.writeFileSync(output, "<html></html>\n");
  });

  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("skips the build when every input is older than the output", () => {
    expect(staleReason(output, [web, lockfile])).toBeNull();
  });

  it("builds when the output is missing", () => {
    fs.rmSync(output);
    expect(staleReason(output, [web, lockfile])).toBe(`${output} does not exist`);
  });

  it("builds when a source deep under web/ was edited, naming it", () => {
    age(path.join(web, "src", "main.tsx"), later);
    expect(staleReason(output, [web, lockfile])).toBe(`${path.join(web, "src", "main.tsx")} changed after ${output} was built`);
  });

  it("builds when a file was added or removed (the directory changed)", () => {
    fs.writeFileSync(path.join(web, "src", "extra.tsx"), "export {};\n");
    age(path.join(web, "src", "extra.tsx"), past);
    age(path.join(web, "src"), later);
    expect(staleReason(output, [web, lockfile])).toMatch(/src changed after/);
  });

  it("builds when the lockfile changed (new React or Vite)", () => {
    age(lockfile, later);
    expect(staleReason(output, [web, lockfile])).toMatch(/package-lock\.json changed after/);
  });

  it("ignores node_modules under an input", () => {
    fs.mkdirSync(path.join(web, "node_modules"));
    fs.writeFileSync(path.join(web, "node_modules", "cache.json"), "{}\n");
    age(path.join(web, "node_modules"), later);
    age(web, past);
    expect(staleReason(output, [web, lockfile])).toBeNull();
  });

  it("refuses an input that does not exist rather than calling the output current", () => {
    expect(() => staleReason(output, [path.join(dir, "nope")])).toThrow(/build input .*nope does not exist/);
  });
});
