/**
 * `npm run build` (and the first half of `npm start`): builds only what changed.
 *
 * - The server: `tsc -b tsconfig.build.json`, TypeScript's incremental build mode. It keeps
 *   dist/tsconfig.build.tsbuildinfo and, when no input is newer than its outputs, only says so.
 * - The web console: Vite has no incremental build (a full one takes 6-20 s), so it runs only
 *   when a file under web/ or package-lock.json (the React and Vite versions) is newer than
 *   dist/web/index.html, which Vite writes last.
 *
 * `--force` rebuilds both from scratch.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { staleReason } from "./stale-outputs.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const force = process.argv.includes("--force");

function buildServer(): void {
  const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");
  if (force) fs.rmSync(path.join(root, "dist", "tsconfig.build.tsbuildinfo"), { force: true });
  const result = spawnSync(process.execPath, [tsc, "-b", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`tsc -b tsconfig.build.json failed (exit code ${result.status ?? result.signal})`);
}

async function buildConsole(): Promise<void> {
  const reason = force
    ? "--force"
    : staleReason(path.join(root, "dist", "web", "index.html"), [path.join(root, "web"), path.join(root, "package-lock.json")]);
  if (reason === null) {
    console.log("web console: dist/web is up to date, skipping the Vite build");
    return;
  }
  console.log(`web console: building with Vite (${reason})`);
  const { build } = await import("vite");
  await build({ configFile: path.join(root, "web", "vite.config.ts"), logLevel: "warn" });
}

buildServer();
await buildConsole();
