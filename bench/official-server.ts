/**
 * LangGraph's official in-memory JS server (`@langchain/langgraph-cli dev`) for `npm run bench --
 * compare`. It is installed by the bench itself, with npm at pinned versions, into a scratch folder
 * outside the repository (BENCH_OFFICIAL_DIR, default ~/.cache/hangar-bench/official): nothing of
 * it is committed. The LangGraph packages the graphs import are pinned to the versions this
 * repository runs, and the bench's graph files are copied next to them, so both servers execute
 * the same graph code on the same library.
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { freePort, REPO_ROOT } from "./bench-kit.js";

const OFFICIAL_DIR = process.env.BENCH_OFFICIAL_DIR ?? path.join(os.homedir(), ".cache", "hangar-bench", "official");
// The server under comparison; bump together (the CLI depends on the API package of its own version).
const OFFICIAL_SERVER_VERSION = "1.5.1";
// What the graphs import, at the versions Hangar itself runs (read from its node_modules).
const SHARED_PACKAGES = ["@langchain/langgraph", "@langchain/langgraph-checkpoint", "@langchain/langgraph-sdk", "@langchain/core"];
// Its peer (^5.5.4; it reads graphs' schemas with it); Hangar's own TypeScript is newer.
const OFFICIAL_TYPESCRIPT_VERSION = "5.9.3";
const CLOCK_TICKS_PER_SECOND = 100;

function installedVersion(name: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string };
  return manifest.version;
}

/** Installs the pinned packages into OFFICIAL_DIR unless that exact set is installed already. */
function ensureInstalled(): void {
  const dependencies: Record<string, string> = {
    "@langchain/langgraph-cli": OFFICIAL_SERVER_VERSION,
    "@langchain/langgraph-api": OFFICIAL_SERVER_VERSION,
    typescript: OFFICIAL_TYPESCRIPT_VERSION,
  };
  for (const name of SHARED_PACKAGES) dependencies[name] = installedVersion(name);
  const manifest = JSON.stringify({ name: "hangar-bench-official", private: true, type: "module", dependencies }, null, 2);
  const stamp = path.join(OFFICIAL_DIR, "node_modules", ".hangar-bench-manifest.json");
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === manifest) return;
  fs.mkdirSync(OFFICIAL_DIR, { recursive: true });
  fs.writeFileSync(path.join(OFFICIAL_DIR, "package.json"), manifest);
  console.log(`installing the official server (${Object.entries(dependencies).map(([name, version]) => `${name}@${version}`).join(", ")}) into ${OFFICIAL_DIR} ...`);
  // No install scripts: the packages run from their published files (esbuild's binary comes as an optional dependency).
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock"], { cwd: OFFICIAL_DIR, stdio: "inherit" });
  fs.writeFileSync(stamp, manifest);
}

/** The deployment's graph files copied into OFFICIAL_DIR/graphs, and a langgraph.json naming them. */
function writeDeployment(configPath: string): string {
  const config = JSON.parse(fs.readFileSync(path.resolve(REPO_ROOT, configPath), "utf8")) as { graphs: Record<string, string> };
  const graphsDir = path.join(OFFICIAL_DIR, "graphs");
  fs.rmSync(graphsDir, { recursive: true, force: true });
  fs.mkdirSync(graphsDir, { recursive: true });
  const graphs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(config.graphs)) {
    const [file, exported] = spec.split(":");
    const copy = `${name}${path.extname(file!)}`;
    fs.copyFileSync(path.resolve(path.dirname(path.resolve(REPO_ROOT, configPath)), file!), path.join(graphsDir, copy));
    graphs[name] = `./graphs/${copy}:${exported}`;
  }
  const deployment = path.join(OFFICIAL_DIR, "langgraph.json");
  fs.writeFileSync(deployment, JSON.stringify({ graphs }, null, 2));
  return deployment;
}

/** The pid and its descendants (the CLI starts the API server as a child process). */
function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/))
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
  return [pid, ...children.flatMap(processTree)];
}

function cpuMsOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

export interface OfficialServer {
  url: string;
  client(concurrency: number): Client;
  /** CPU of the CLI and the server it started, ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/**
 * `langgraphjs dev` on a free port of 127.0.0.1: no browser, no reload watcher, no tunnel (off
 * unless --tunnel), no analytics; `jobsPerWorker` runs at a time (its -n). Its state from an
 * earlier bench (.langgraph_api, which the in-memory server saves on exit) is removed first.
 */
export async function startOfficialServer(options: { configPath: string; jobsPerWorker: number; logPath: string }): Promise<OfficialServer> {
  ensureInstalled();
  const deployment = writeDeployment(options.configPath);
  fs.rmSync(path.join(OFFICIAL_DIR, ".langgraph_api"), { recursive: true, force: true });
  const port = await freePort();
  const logFd = fs.openSync(options.logPath, "a");
  const cli = path.join(OFFICIAL_DIR, "node_modules", "@langchain", "langgraph-cli", "dist", "cli", "cli.mjs");
  const child = spawn(
    process.execPath,
    [cli, "dev", "--port", String(port), "--host", "127.0.0.1", "--no-browser", "--no-reload", "--config", deployment, "--n-jobs-per-worker", String(options.jobsPerWorker)],
    {
      cwd: OFFICIAL_DIR,
      // Its own process group, so stop() reaches the server the CLI spawned too.
      detached: true,
      env: { ...process.env, LANGGRAPH_CLI_NO_ANALYTICS: "1", BROWSER: "none", LANGSMITH_TRACING: "false", LANGCHAIN_TRACING_V2: "false" },
      stdio: ["ignore", logFd, logFd],
    },
  );
  fs.closeSync(logFd);
  const pid = child.pid!;
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exit.then(() => {
    exited = true;
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      return;
    }
    const killer = setTimeout(() => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // gone
      }
    }, 10_000);
    await exit;
    clearTimeout(killer);
  };
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (exited) throw new Error(`the official server exited during start-up; see ${options.logPath}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the official server did not answer /ok within 180 s; see ${options.logPath}`);
    }
    try {
      if ((await fetch(`${url}/ok`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    client: (concurrency) => new Client({ apiUrl: url, apiKey: null, callerOptions: { maxRetries: 0, maxConcurrency: Math.max(64, concurrency * 4) } }),
    cpuMs: () => processTree(pid).reduce((sum, member) => sum + cpuMsOf(member), 0),
    stop,
  };
}
