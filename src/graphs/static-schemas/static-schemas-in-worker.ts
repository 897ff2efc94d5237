import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { StaticDeploymentGraph, StaticSchemaRequest } from "./extract-static-schemas.js";

// Graphs whose types take longer than this to compile get no static schemas.
const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Runs extractStaticSchemas (one batch: one compilation) in a worker thread (static-schema-worker), so the seconds the
 * TypeScript compiler takes never block the server. Rejects on a failure or timeout.
 */
export function extractStaticSchemasInWorker(
  requests: readonly StaticSchemaRequest[],
  options: { timeoutMs?: number } = {},
): Promise<StaticDeploymentGraph[]> {
  const worker = startWorker(requests);
  // A compilation still running must not keep a stopping server alive.
  worker.unref();
  return new Promise<StaticDeploymentGraph[]>((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`compiling the graph's types took longer than ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`));
    }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    timer.unref();
    worker.once("message", (message: { ok: true; schemas: StaticDeploymentGraph[] } | { ok: false; message: string }) => {
      clearTimeout(timer);
      if (message.ok) resolve(message.schemas);
      else reject(new Error(message.message));
    });
    worker.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    worker.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the schema worker exited with code ${code} before answering`));
    });
  });
}

/**
 * The worker's entry is the compiled .js beside this file; under tsx/vitest (a .ts entry, which
 * Node 20 cannot start a worker from) an eval script registers tsx in the thread first, as the
 * cron scheduler does for its job.
 */
function startWorker(requests: readonly StaticSchemaRequest[]): Worker {
  const here = fileURLToPath(import.meta.url);
  const extension = path.extname(here);
  const entry = path.join(path.dirname(here), `static-schema-worker${extension}`);
  if (extension !== ".ts") return new Worker(entry, { workerData: requests });
  const tsxApi = pathToFileURL(tsxEsmApiPath()).href;
  const script =
    `import(${JSON.stringify(tsxApi)})` +
    `.then((api) => { (api.register ?? api.default.register)(); return import(${JSON.stringify(pathToFileURL(entry).href)}); })`;
  return new Worker(script, { eval: true, workerData: requests });
}

/** tsx's ESM register API as a file path (its CommonJS build fails inside a worker thread). */
function tsxEsmApiPath(): string {
  const packageJson = createRequire(import.meta.url).resolve("tsx/package.json");
  const { exports } = JSON.parse(readFileSync(packageJson, "utf8")) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return path.join(path.dirname(packageJson), exports["./esm/api"]!.import.default);
}
