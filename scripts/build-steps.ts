import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { staleReason } from "./stale-outputs.js";

/**
 * The two halves of `npm run build`, each doing only what changed (scripts/build.ts runs them;
 * the test run's global setup runs them too, so the tests that start the CLI as an OS process
 * run the built entry `npm start` runs, never a stale one).
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// tsc's exit code when it found type errors yet wrote every output.
const OUTPUTS_WRITTEN_DESPITE_ERRORS = 2;

/**
 * The server: `tsc -b tsconfig.build.json`, TypeScript's incremental build (when no input is
 * newer than its outputs, it only checks). `allowTypeErrors`: type errors (printed) do not fail
 * the build when tsc still wrote the outputs, so a test run is not blocked by a type error
 * elsewhere (`npm run typecheck` and CI fail on it).
 */
export function buildServer(options: { force?: boolean; allowTypeErrors?: boolean } = {}): void {
  const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");
  if (options.force) fs.rmSync(path.join(root, "dist", "tsconfig.build.tsbuildinfo"), { force: true });
  const result = spawnSync(process.execPath, [tsc, "-b", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  if (result.status === 0 || (options.allowTypeErrors && result.status === OUTPUTS_WRITTEN_DESPITE_ERRORS)) return;
  throw new Error(`tsc -b tsconfig.build.json failed (exit code ${result.status ?? result.signal})`);
}

/**
 * The web console into dist/web. Vite has no incremental build (a full one takes 6-20 s), so it
 * runs only when a file under web/ or package-lock.json (the React and Vite versions) is newer
 * than dist/web/index.html, which Vite writes last.
 */
export async function buildConsole(options: { force?: boolean; log?: (line: string) => void } = {}): Promise<void> {
  const log = options.log ?? console.log;
  const reason = options.force
    ? "--force"
    : staleReason(path.join(root, "dist", "web", "index.html"), [path.join(root, "web"), path.join(root, "package-lock.json")]);
  if (reason === null) {
    log("web console: dist/web is up to date, skipping the Vite build");
    return;
  }
  log(`web console: building with Vite (${reason})`);
  const { build } = await import("vite");
  // Vite and the React plugin take NODE_ENV from the process when it is set (the test runner sets
  // it to "test"): without this the build would mix development JSX with production React.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({ configFile: path.join(root, "web", "vite.config.ts"), logLevel: "warn" });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
