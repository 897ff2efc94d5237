import { fork } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { StaticSchemaRequest, StaticSchemasResult } from "./extract-static-schemas.js";

// Graphs whose types take longer than this to compile get no static schemas. The example
// deployment's types take ~5 s of CPU, yet 111 s were measured on 2 cores shared at load 20.
const DEFAULT_TIMEOUT_MS = 180_000;

type Answer = { ok: true; schemas: StaticSchemasResult } | { ok: false; message: string };

/**
 * Runs extractStaticSchemas (one batch: one compilation) in a child process (static-schema-child),
 * so the seconds the TypeScript compiler takes never block the server, and the memory it needs
 * (hundreds of MB at its peak) is all returned when the child exits: a worker thread's heap,
 * freed inside this process, left ~30 MB of RSS behind for good (measured). Rejects on a
 * failure or timeout.
 */
export function extractStaticSchemasInChild(
  requests: readonly StaticSchemaRequest[],
  options: { timeoutMs?: number } = {},
): Promise<StaticSchemasResult> {
  const child = startChild();
  // A compilation still running must not keep a stopping server alive.
  child.unref();
  child.channel?.unref();
  return new Promise<StaticSchemasResult>((resolve, reject) => {
    let answered = false;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`compiling the graph's types took longer than ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`));
    }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    timer.unref();
    child.once("message", (message: Answer) => {
      answered = true;
      clearTimeout(timer);
      if (message.ok) resolve(message.schemas);
      else reject(new Error(message.message));
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (!answered) reject(new Error(`the schema compiler process exited (${signal ?? `code ${code}`}) before answering`));
    });
    child.send([...requests]);
  });
}

/**
 * The child's entry is the compiled .js beside this file; under tsx/vitest (a .ts entry) the
 * child loads tsx first, by path, so that it works from any working directory.
 */
function startChild() {
  const here = fileURLToPath(import.meta.url);
  const extension = path.extname(here);
  const entry = path.join(path.dirname(here), `static-schema-child${extension}`);
  const execArgv = extension === ".ts" ? ["--import", pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href] : [];
  // stdout is not ours to write to (the server's log); stderr passes through for crashes.
  return fork(entry, [], { execArgv, stdio: ["ignore", "ignore", "inherit", "ipc"] });
}
