import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Hangar as a deployment's dependency, as a LangGraph user adds it: `npm pack` of this repository
 * (without its `prepack` build: the test run's global setup has just built dist/ the same way,
 * test/helpers/global-setup.ts), `npm install <tgz>` into a folder holding only its own langgraph.json and
 * a TypeScript graph importing @langchain/langgraph (which resolves only because the installed
 * hangar depends on it), then `npx hangar serve` / `npx hangar dev` there on the embedded database.
 * One install for the file: it is the slow part (about 20 s with npm's cache warm).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const run = promisify(execFile);

const GRAPH = (suffix: string) => `import { Annotation, StateGraph } from "@langchain/langgraph";

const State = Annotation.Root({ text: Annotation<string>() });

export const graph = new StateGraph(State)
  .addNode("shout", (state: typeof State.State) => ({ text: \`\${state.text}${suffix}\` }))
  .addEdge("__start__", "shout")
  .compile();
`;

let workDir: string;
let deployment: string;
const started = new Set<HangarProcess>();

interface HangarProcess {
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
}

/** `npx hangar <command>` in the deployment folder, in its own process group (npx, npm and node). */
function npxHangar(command: string): HangarProcess {
  // The embedded database in its default place, ./.hangar of the deployment: `hangar dev` must
  // not take the server's own writes there for changes.
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: "0", LOG_LEVEL: "info" };
  delete env.DATABASE_URL;
  delete env.HANGAR_DATA_DIR;
  const child = spawn("npx", ["--no-install", "hangar", command], { cwd: deployment, env, detached: true });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const hangar = { child, output: () => output };
  started.add(hangar);
  // "close": npx's npm and hangar, which shares its output, have both exited.
  child.on("close", () => started.delete(hangar));
  return hangar;
}

/**
 * Resolves with the URL of the `times`-th "Hangar is running" line; rejects, showing the output,
 * if the process ends first or it takes longer than a start-up can (a test timeout would not).
 */
function running(hangar: HangarProcess, times = 1): Promise<string> {
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`not running ${times} time(s) after 90 s:\n${hangar.output()}`)), 90_000);
    const check = () => {
      const urls = [...hangar.output().matchAll(/"url":"(http:[^"]+)"[^\n]*"msg":"Hangar is running"/g)].map((match) => match[1]!);
      if (urls.length < times) return;
      hangar.child.stdout!.off("data", check);
      clearTimeout(deadline);
      resolve(urls[times - 1]!);
    };
    hangar.child.stdout!.on("data", check);
    hangar.child.once("exit", (code) => reject(new Error(`npx hangar exited (${code}) before it was running:\n${hangar.output()}`)));
    check();
  });
}

/**
 * Ctrl-C as a terminal sends it, SIGINT to the whole process group (npx's npm and hangar), then
 * waits until every process holding its output has exited (npm exits before hangar is done).
 */
function stop(hangar: HangarProcess): Promise<void> {
  const { child } = hangar;
  if (!started.has(hangar)) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("close", () => resolve());
    process.kill(-child.pid!, "SIGINT");
  });
}

/** Shut down gracefully once per server start, never forced by a second signal. */
function expectGracefulStops(hangar: HangarProcess, starts: number): void {
  expect(hangar.output().match(/"msg":"shutting down"/g)).toHaveLength(starts);
  expect(hangar.output()).not.toMatch(/second signal|shutdown failed|deadline passed/);
}

async function shout(url: string, text: string): Promise<unknown> {
  const client = new Client({ apiUrl: url });
  return client.runs.wait(null, "shout", { input: { text } });
}

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "hangar-package-"));
  await run("npm", ["pack", "--ignore-scripts", "--pack-destination", workDir], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  const tarball = fs.readdirSync(workDir).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack wrote no .tgz into ${workDir}`);

  deployment = path.join(workDir, "my-deployment");
  fs.mkdirSync(deployment);
  fs.writeFileSync(path.join(deployment, "package.json"), JSON.stringify({ name: "my-deployment", private: true, type: "module" }));
  fs.writeFileSync(path.join(deployment, "langgraph.json"), JSON.stringify({ graphs: { shout: "./src/graph.ts:graph" } }));
  fs.mkdirSync(path.join(deployment, "src"));
  fs.writeFileSync(path.join(deployment, "src", "graph.ts"), GRAPH("!"));
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", path.join(workDir, tarball)], {
    cwd: deployment,
    maxBuffer: 64 * 1024 * 1024,
  });
}, 300_000);

afterAll(async () => {
  await Promise.all([...started].map(stop));
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

describe("the packed package installed into a deployment folder", () => {
  it("ships only what runs: the built server, its compiled migrations and the console", () => {
    const installed = path.join(deployment, "node_modules", "hangar");
    // (node_modules: a dependency npm could not hoist, as pglite-pgvector's exact pglite.)
    const top = fs.readdirSync(installed).filter((name) => name !== "node_modules").sort();
    expect(top).toEqual(["README.md", "dist", "package.json"]);
    expect(fs.readdirSync(path.join(installed, "dist")).sort()).toEqual(["migrations", "src", "web"]);
    expect(fs.existsSync(path.join(installed, "dist", "web", "index.html"))).toBe(true);
    const files = fs.readdirSync(path.join(installed, "dist"), { recursive: true, encoding: "utf8" });
    expect(files.filter((file) => file.endsWith(".map") || file.endsWith(".ts"))).toEqual([]);
  });

  it("`npx hangar serve` serves the deployment's own langgraph.json (default path), its graph and the console", async () => {
    const hangar = npxHangar("serve");
    const url = await running(hangar);
    expect(await shout(url, "hello")).toEqual({ text: "hello!" });
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    const script = (await page.text()).match(/<script type="module"[^>]* src="([^"]+)"/)?.[1];
    expect(script).toBeDefined();
    expect((await fetch(new URL(script!, url))).status).toBe(200);
    await stop(hangar);
    expectGracefulStops(hangar, 1);
  }, 120_000);

  it("`npx hangar dev` restarts with the changed graph when its file is saved", async () => {
    const hangar = npxHangar("dev");
    const first = await running(hangar);
    expect(await shout(first, "hello")).toEqual({ text: "hello!" });
    fs.writeFileSync(path.join(deployment, "src", "graph.ts"), GRAPH("?"));
    const second = await running(hangar, 2);
    expect(await shout(second, "hello")).toEqual({ text: "hello?" });
    fs.writeFileSync(path.join(deployment, "langgraph.json"), JSON.stringify({ graphs: { shout: "./src/graph.ts:graph", again: "./src/graph.ts:graph" } }));
    const third = await running(hangar, 3);
    expect(hangar.output().match(/deployment changed, restarting/g)).toHaveLength(2);
    const assistants = await new Client({ apiUrl: third }).assistants.search({ graphId: "again" });
    expect(assistants).toHaveLength(1);
    await stop(hangar);
    expectGracefulStops(hangar, 3);
  }, 120_000);
});
