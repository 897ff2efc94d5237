/**
 * `npm run bench -- graph`: LangGraph's and LangChain's own CPU per run of the one-node graph,
 * in-process without database or HTTP (bench/graph-overhead-probe.ts in child processes), with
 * and without the CLI's process tuning (src/process-tuning.ts), alternated BENCH_GRAPH_PAIRS (3)
 * times so that the machine's drift hits both alike. The server bench cannot show a 5% change
 * through this VM's ±15% drift; this can.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { envInt, printTable, repoState, round, writeResults, type ResultRow } from "./bench-kit.js";
import { median } from "./run-targets.js";

const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), "graph-overhead-probe.ts");
const PAIRS = envInt("BENCH_GRAPH_PAIRS", 3);

interface ProbeResult {
  tuned: boolean;
  cpu_ms_per_run: number;
  wall_ms_per_run: number;
  env_reads_per_run?: number;
  random_calls_per_run?: number;
}

function probe(env: Record<string, string>): ProbeResult {
  const output = execFileSync(process.execPath, ["--import", "tsx", PROBE], { env: { ...process.env, ...env }, encoding: "utf8" });
  return JSON.parse(output.trim().split("\n").at(-1)!) as ProbeResult;
}

export async function graphOverheadSuite(stamp: string): Promise<void> {
  const counts = probe({ BENCH_GRAPH_COUNT_CALLS: "1", BENCH_GRAPH_RUNS: "200", BENCH_GRAPH_WARMUP: "0" });
  const plain: ProbeResult[] = [];
  const tuned: ProbeResult[] = [];
  for (let i = 0; i < PAIRS; i++) {
    plain.push(probe({ HANGAR_PROCESS_TUNING: "0" }));
    tuned.push(probe({ HANGAR_PROCESS_TUNING: "1" }));
  }
  const row = (scenario: string, results: ProbeResult[]): ResultRow => ({
    scenario,
    "cpu_ms/run": round(median(results.map((result) => result.cpu_ms_per_run)), 3),
    "wall_ms/run": round(median(results.map((result) => result.wall_ms_per_run)), 3),
    each_cpu: results.map((result) => round(result.cpu_ms_per_run, 3)).join(" / "),
  });
  const rows = [row("without process tuning", plain), row("with process tuning (CLI)", tuned)];
  printTable(
    `LangGraph per run, in-process (echo graph, no-op tracer, MemorySaver; median of ${PAIRS}); one run reads process.env ` +
      `${round(counts.env_reads_per_run ?? 0, 1)} times and calls crypto.getRandomValues ${round(counts.random_calls_per_run ?? 0, 1)} times`,
    rows,
    ["cpu_ms/run", "wall_ms/run", "each_cpu"],
  );
  const file = writeResults("graph", stamp, { suite: "graph", repo: repoState(), counts, plain, tuned, rows });
  console.log(`\ngraph overhead results: ${file}`);
}
