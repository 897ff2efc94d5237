/**
 * Child process of the `graph` bench suite (bench/graph-overhead.ts): runs the one-node `echo`
 * graph in-process (MemorySaver, a no-op callback tracer as Hangar's trace recorder attaches one,
 * stream mode "values") and prints one JSON line: CPU and wall time per run. No database, no
 * HTTP: this is LangGraph's and LangChain's own per-run cost, the floor under every Hangar run.
 */
import { MemorySaver } from "@langchain/langgraph";
import { BaseTracer } from "@langchain/core/tracers/base";
import { graph } from "../test/fixtures/graphs/echo.js";

class NoopTracer extends BaseTracer {
  name = "bench_noop_tracer";
  // Attached as Hangar attaches its tracer: callbacks in line, not through LangChain's background
  // queue (src/tracing/trace-store-tracer.ts), so the floor is the same graph work.
  override awaitHandlers = true;
  protected async persistRun(): Promise<void> {}
}

const WARMUP = Number(process.env.BENCH_GRAPH_WARMUP ?? 500);
const RUNS = Number(process.env.BENCH_GRAPH_RUNS ?? 3000);
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
process.stdout.write(
  `${JSON.stringify({
    runs: RUNS,
    cpu_ms_per_run: (cpu.user + cpu.system) / 1000 / RUNS,
    wall_ms_per_run: wallMs / RUNS,
  })}\n`,
);
