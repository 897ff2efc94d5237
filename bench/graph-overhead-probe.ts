/**
 * Child process of the `graph` bench suite (bench/graph-overhead.ts): runs the one-node `echo`
 * graph in-process (MemorySaver, a no-op callback tracer as Hangar's trace recorder attaches one,
 * stream mode "values") and prints one JSON line: CPU and wall time per run, and how many
 * process.env reads and crypto.getRandomValues calls one run makes. With HANGAR_PROCESS_TUNING=1
 * it first applies src/process-tuning.ts as the CLI does. No database, no HTTP: this is
 * LangGraph's and LangChain's own per-run cost, the floor under every Hangar run.
 */
import { MemorySaver } from "@langchain/langgraph";
import { BaseTracer } from "@langchain/core/tracers/base";
import { graph } from "../test/fixtures/graphs/echo.js";
import { poolRandomValues, snapshotEnvironment } from "../src/process-tuning.js";

class NoopTracer extends BaseTracer {
  name = "bench_noop_tracer";
  protected async persistRun(): Promise<void> {}
}

const WARMUP = Number(process.env.BENCH_GRAPH_WARMUP ?? 500);
const RUNS = Number(process.env.BENCH_GRAPH_RUNS ?? 3000);
const tuned = process.env.HANGAR_PROCESS_TUNING === "1";
const counting = process.env.BENCH_GRAPH_COUNT_CALLS === "1";

if (tuned) {
  snapshotEnvironment();
  poolRandomValues();
}
const calls = { env: 0, random: 0 };
if (counting) {
  process.env = new Proxy(process.env, {
    get(target, key) {
      calls.env += 1;
      return Reflect.get(target, key);
    },
  });
  const original = globalThis.crypto.getRandomValues.bind(globalThis.crypto);
  Object.defineProperty(globalThis.crypto, "getRandomValues", {
    configurable: true,
    value: <T extends ArrayBufferView | null>(array: T): T => {
      calls.random += 1;
      return original(array as never) as T;
    },
  });
}

graph.checkpointer = new MemorySaver();

async function runOnce(i: number): Promise<void> {
  const options = { configurable: { thread_id: `bench-${i}` }, callbacks: [new NoopTracer()], streamMode: ["values" as const] };
  for await (const _ of await graph.stream({ messages: [{ role: "user", content: `bench ${i}` }] }, options)) {
    // drain
  }
}

for (let i = 0; i < WARMUP; i++) await runOnce(i);
const cpuStart = process.cpuUsage();
const wallStart = performance.now();
for (let i = 0; i < RUNS; i++) await runOnce(WARMUP + i);
const cpu = process.cpuUsage(cpuStart);
const wallMs = performance.now() - wallStart;
const total = WARMUP + RUNS;
process.stdout.write(
  `${JSON.stringify({
    tuned,
    runs: RUNS,
    cpu_ms_per_run: (cpu.user + cpu.system) / 1000 / RUNS,
    wall_ms_per_run: wallMs / RUNS,
    ...(counting ? { env_reads_per_run: calls.env / total, random_calls_per_run: calls.random / total } : {}),
  })}\n`,
);
