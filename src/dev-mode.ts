import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { watch } from "chokidar";
import type { Logger } from "pino";

/**
 * `hangar dev`: `hangar serve` in a child process, started again whenever a file of the
 * deployment changes (the folder holding langgraph.json), as `langgraph dev` reloads graphs.
 *
 * A fresh process rather than a reload in place: ES modules cannot be unloaded, so a graph's
 * module (and everything it imported) would stay cached in this process; a new process also
 * re-reads langgraph.json and its `env`. The old server is shut down gracefully (it releases the
 * embedded database's lock and its port) before the new one starts.
 */
export interface DevModeOptions {
  /** langgraph.json; its folder is watched. */
  deploymentConfigPath: string;
  /** The embedded database's folder, never watched (the server writes to it). */
  dataDir: string;
  /** The arguments of the `serve` command the child runs. */
  serveArgs: string[];
  log: Logger;
}

/** Changes arriving within this window (an editor's save, a `git checkout`) make one restart. */
const SETTLE_MS = 300;

/** Editor leftovers whose changes are no reason to restart. */
const EDITOR_TEMPORARY = /(~|\.sw[px]|\.tmp)$/;

/**
 * Whether a change under the deployment folder leaves the server as it is: node_modules (an
 * install is followed by a save of what uses it), hidden folders and files (.git, .hangar, editor
 * state) except .env files, which langgraph.json's `env` may name, and the embedded database.
 */
export function isIgnoredChange(root: string, dataDir: string, changed: string): boolean {
  const absolute = path.resolve(root, changed);
  if (absolute === dataDir || absolute.startsWith(`${dataDir}${path.sep}`)) return true;
  const relative = path.relative(root, absolute);
  if (relative === "" || relative.startsWith("..")) return false;
  const segments = relative.split(path.sep);
  const name = segments.at(-1)!;
  if (segments.includes("node_modules")) return true;
  if (segments.slice(0, -1).some((segment) => segment.startsWith("."))) return true;
  if (name.startsWith(".") && !name.startsWith(".env")) return true;
  return EDITOR_TEMPORARY.test(name);
}

export async function runDevMode(options: DevModeOptions): Promise<void> {
  const root = path.dirname(options.deploymentConfigPath);
  const { log } = options;
  let child: ChildProcess | null = null;
  let stopping = false;
  let restarting = false;
  let changedAgain = false;
  let settleTimer: NodeJS.Timeout | undefined;

  const startServer = () => {
    // The same Node flags (a loader when run from source) and the same CLI entry as this process.
    const server = spawn(process.execPath, [...process.execArgv, process.argv[1]!, "serve", ...options.serveArgs], {
      // Its own process group, so a terminal's Ctrl-C reaches only this process, which passes it
      // on once (a second signal would make the server skip its graceful shutdown). The IPC
      // channel lets the server notice when this process dies without passing anything on.
      detached: true,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    server.on("exit", (code, signal) => {
      if (child === server) child = null;
      if (!stopping && !restarting) log.warn({ code, signal }, "hangar dev: the server stopped; it starts again when a file changes");
    });
    child = server;
  };

  const stopServer = (signal: NodeJS.Signals): Promise<void> => {
    const server = child;
    if (!server || server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      server.once("exit", () => resolve());
      server.kill(signal);
    });
  };

  const restart = async () => {
    if (restarting) {
      changedAgain = true;
      return;
    }
    restarting = true;
    do {
      changedAgain = false;
      await stopServer("SIGTERM");
      if (stopping) break;
      startServer();
    } while (changedAgain);
    restarting = false;
  };

  const watcher = watch(root, {
    ignoreInitial: true,
    ignored: (changed) => isIgnoredChange(root, options.dataDir, changed),
  });
  watcher.on("all", (event, changed) => {
    if (stopping) return;
    clearTimeout(settleTimer);
    settleTimer = setTimeout(() => {
      log.info({ event, file: path.relative(root, changed) }, "hangar dev: deployment changed, restarting the server");
      void restart();
    }, SETTLE_MS);
  });
  watcher.on("error", (error) => log.error({ err: error }, "hangar dev: watching the deployment failed"));
  await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  log.info({ watching: root }, "hangar dev: watching the deployment's files; changes restart the server");
  startServer();

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    clearTimeout(settleTimer);
    void Promise.all([watcher.close(), stopServer(signal)]).then(() => process.exit(0));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
}
