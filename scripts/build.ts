/**
 * `npm run build` (and the first half of `npm start`): builds only what changed.
 *
 * - The server: `tsc -b tsconfig.build.json`, TypeScript's incremental build mode. It keeps
 *   dist/tsconfig.build.tsbuildinfo and, when no input is newer than its outputs, only says so.
 * - The web console: Vite, only when web/ or package-lock.json changed since dist/web was built.
 *
 * `--force` rebuilds both from scratch.
 */
import { buildConsole, buildServer } from "./build-steps.js";

const force = process.argv.includes("--force");
buildServer({ force });
await buildConsole({ force });
