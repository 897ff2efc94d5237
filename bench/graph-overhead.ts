/**
 * `npm run bench -- graph`: LangGraph's and LangChain's own CPU per run of the one-node graph,
 * in-process without database or HTTP (bench/graph-overhead-probe.ts, each repeat in a fresh child
 * process), BENCH_GRAPH_REPEATS (3) times, judged on the median: the floor under every Hangar run,
 * to set beside the server's CPU per run from the `runs` suite.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { envInt, printTable, repoState, round, writeResults, type ResultRow } from "./bench-kit.js";
import { median, type SuiteFigures } from "./run-targets.js";

const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), "graph-overhead-probe.ts");
const REPEATS = envInt("BENCH_GRAPH_REPEATS", 3);

export interface ProbeResult {
  runs: number;
  cpu_ms_per_run: number;
  wall_ms_per_run: number;
}

/**
 * One repeat of the probe in a fresh child process. Awaited, not run synchronously: the runs
 * suite probes between phases, and a blocked event loop misses its HTTP client's idle sockets
 * being closed by the server, whose next request on one then fails.
 */
export async function probe(): Promise<ProbeResult> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", PROBE], { env: process.env, encoding: "utf8" });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as ProbeResult;
}

export async function graphOverheadSuite(stamp: string): Promise<SuiteFigures> {
  const results: ProbeResult[] = [];
  for (let i = 0; i < REPEATS; i++) results.push(await probe());
  const cpuMsPerRun = median(results.map((result) => result.cpu_ms_per_run));
  const rows: ResultRow[] = [
    {
      scenario: "LangGraph in-process",
      "cpu_ms/run": round(cpuMsPerRun, 3),
      "wall_ms/run": round(median(results.map((result) => result.wall_ms_per_run)), 3),
      each_cpu: results.map((result) => round(result.cpu_ms_per_run, 3)).join(" / "),
    },
  ];
  printTable(
    `LangGraph per run, in-process (echo graph, no-op tracer, MemorySaver, ${results[0]?.runs ?? 0} runs; median of ${REPEATS})`,
    rows,
    ["cpu_ms/run", "wall_ms/run", "each_cpu"],
  );
  const file = writeResults("graph", stamp, { suite: "graph", repo: repoState(), results, rows });
  console.log(`\ngraph overhead results: ${file}`);
  return { langgraphCpuMsPerRun: cpuMsPerRun };
}
