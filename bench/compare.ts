/**
 * `npm run bench -- compare`: Hangar (on PostgreSQL, a fresh database) next to LangGraph's official
 * in-memory JS server (bench/official-server.ts) on the same deployment (bench/langgraph.json),
 * both driven by the official SDK client, and each figure printed for both with the ratio:
 *
 * - background runs/s: thread create + run create + join, BENCH_COMPARE_CONCURRENCY (16) clients;
 * - streamed runs/s: thread create + runs.stream (values) to its end, same clients;
 * - a streamed run's response headers and `metadata` event at c=1 (raw fetch of the SSE endpoint);
 * - CRUD: assistant create + patch + search (metadata) per iteration, ops/s at 16 clients;
 * - assistant PATCH alone and a plain read (GET /assistants/{id}) alone: latency at 16 clients.
 *
 * Each phase runs BENCH_COMPARE_REPEATS (3) times per server, the servers alternating (and
 * which goes first alternating too), and the median repeat is shown; the load average beside it.
 * BENCH_COMPARE_RUNS (400 per repeat), BENCH_COMPARE_CRUD (400 iterations), BENCH_COMPARE_READS
 * (1000), BENCH_COMPARE_STREAMS_C1 (200), BENCH_COMPARE_WARMUP (400 iterations of every operation the
 * phases time, on each server before the first phase). Server CPU: Hangar's process (PostgreSQL's backends
 * not included), the official CLI and the server it spawns. BENCH_COMPARE_PHASES=crud,patch,read
 * (of runs, streams, first-bytes, crud, patch, read) selects phases; BENCH_CPU_PROF=1 profiles
 * Hangar's server and prints its self time. BENCH_BASELINE=<another checkout> (built and
 * installed, e.g. a worktree of main; bench-kit's buildsUnderTest) runs its Hangar too, on its own database, in turn with the
 * other two (a before/after comparison with the official figure from the same run).
 */
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { Client } from "@langchain/langgraph-sdk";
import {
  buildsUnderTest,
  RESULTS_DIR,
  busiestCpuProfile,
  summarizeCpuProfile,
  createBenchDatabase,
  envInt,
  percentiles,
  printTable,
  repoState,
  round,
  runLoops,
  startServerProcess,
  writeResults,
  type ResultRow,
} from "./bench-kit.js";
import { startOfficialServer } from "./official-server.js";

const CONFIG = "bench/langgraph.json";
const GRAPH = "echo";
const CONCURRENCY = envInt("BENCH_COMPARE_CONCURRENCY", 16);
const REPEATS = Math.max(1, envInt("BENCH_COMPARE_REPEATS", 3));
const RUNS = envInt("BENCH_COMPARE_RUNS", 400);
const CRUD = envInt("BENCH_COMPARE_CRUD", 400);
const READS = envInt("BENCH_COMPARE_READS", 1000);
const STREAMS_C1 = envInt("BENCH_COMPARE_STREAMS_C1", 200);
const WARMUP = envInt("BENCH_COMPARE_WARMUP", 400);
const CPU_PROFILE = process.env.BENCH_CPU_PROF === "1";
const WORKER_CONCURRENCY = Number(process.env.HANGAR_WORKER_CONCURRENCY ?? 16);
const BASELINE = buildsUnderTest().find((build) => build.build === "baseline")?.repoRoot;

interface Side {
  name: "hangar" | "official" | "baseline";
  url: string;
  client: Client;
  cpuMs(): number;
}

/** One measured repeat: a rate (per second) or null, latency percentiles, server CPU per operation. */
interface Sample {
  per_s: number | null;
  latency: Record<string, number>;
  extra?: Record<string, number>;
  cpu_ms_per_op: number;
  /**
   * Cores this process (the SDK clients driving the server) used while timed. Near 1, the
   * client is the bottleneck: the ratio is then capped by it for both servers (on 2 cores the
   * CRUD mix's client took 0.82 cores, ~0.45 ms of CPU per request).
   */
  client_cores: number;
  load_1m: number;
}

type Phase = (side: Side) => Promise<Sample>;

const input = (i: number) => ({ messages: [{ role: "user", content: `bench ${i}` }] });

async function timed(side: Side, operations: number, body: () => Promise<{ seconds: number; latencies: number[]; extra?: Record<string, number> }>): Promise<Sample> {
  const cpuStart = side.cpuMs();
  const clientStart = process.cpuUsage();
  const { seconds, latencies, extra } = await body();
  const client = process.cpuUsage(clientStart);
  return {
    per_s: round(operations / seconds, 1),
    latency: percentiles(latencies),
    extra,
    cpu_ms_per_op: round((side.cpuMs() - cpuStart) / operations, 2),
    client_cores: round((client.user + client.system) / 1e6 / seconds, 2),
    load_1m: round(os.loadavg()[0]!, 2),
  };
}

const backgroundRuns: Phase = (side) =>
  timed(side, RUNS, async () => {
    const latencies: number[] = [];
    const seconds = await runLoops(RUNS, CONCURRENCY, async (i) => {
      const t0 = performance.now();
      const thread = await side.client.threads.create();
      const run = await side.client.runs.create(thread.thread_id, GRAPH, { input: input(i) });
      await side.client.runs.join(thread.thread_id, run.run_id);
      latencies.push(performance.now() - t0);
    });
    return { seconds, latencies };
  });

const streamedRuns: Phase = (side) =>
  timed(side, RUNS, async () => {
    const latencies: number[] = [];
    const seconds = await runLoops(RUNS, CONCURRENCY, async (i) => {
      const t0 = performance.now();
      const thread = await side.client.threads.create();
      let values = 0;
      for await (const chunk of side.client.runs.stream(thread.thread_id, GRAPH, { input: input(i), streamMode: "values" })) {
        if (chunk.event === "values") values += 1;
      }
      if (values === 0) throw new Error(`${side.name}: a streamed run ended without a values event`);
      latencies.push(performance.now() - t0);
    });
    return { seconds, latencies };
  });

/** Raw SSE request on a pre-created thread: when the headers came, when the metadata event did. */
const firstBytes: Phase = async (side) => {
  const threads: string[] = [];
  for (let i = 0; i < STREAMS_C1; i++) threads.push((await side.client.threads.create()).thread_id);
  return timed(side, STREAMS_C1, async () => {
    const headers: number[] = [];
    const metadata: number[] = [];
    const seconds = await runLoops(STREAMS_C1, 1, async (i) => {
      const t0 = performance.now();
      const response = await fetch(`${side.url}/threads/${threads[i]}/runs/stream`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ assistant_id: GRAPH, input: input(i), stream_mode: ["values"] }),
      });
      headers.push(performance.now() - t0);
      if (!response.ok || !response.body) throw new Error(`${side.name}: stream answered ${response.status}`);
      const decoder = new TextDecoder();
      let text = "";
      let sawMetadata = false;
      for await (const chunk of response.body) {
        text += decoder.decode(chunk, { stream: true });
        if (!sawMetadata && /event: ?metadata\r?\n/.test(text)) {
          sawMetadata = true;
          metadata.push(performance.now() - t0);
        }
      }
      if (!sawMetadata) throw new Error(`${side.name}: a stream had no metadata event`);
    });
    const m = percentiles(metadata, "metadata_");
    return { seconds, latencies: headers, extra: { metadata_p50_ms: m.metadata_p50_ms!, metadata_p95_ms: m.metadata_p95_ms! } };
  });
};

const crudMix: Phase = (side) =>
  timed(side, CRUD * 3, async () => {
    const latencies: number[] = [];
    const seconds = await runLoops(CRUD, CONCURRENCY, async (i) => {
      const t0 = performance.now();
      const assistant = await side.client.assistants.create({ graphId: GRAPH, name: `bench-${i}`, metadata: { bench: "compare", i } });
      await side.client.assistants.update(assistant.assistant_id, { context: { model_name: `m-${i}` } });
      await side.client.assistants.search({ metadata: { i }, limit: 10 });
      latencies.push(performance.now() - t0);
    });
    return { seconds, latencies };
  });

/** Assistants for the PATCH and read phases, one per client so no two clients wait on one row. */
async function benchAssistants(side: Side): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < CONCURRENCY; i++) ids.push((await side.client.assistants.create({ graphId: GRAPH, metadata: { bench: "patch" } })).assistant_id);
  return ids;
}

const patches: Phase = async (side) => {
  const ids = await benchAssistants(side);
  return timed(side, READS, async () => {
    const latencies: number[] = [];
    const seconds = await runLoops(READS, CONCURRENCY, async (i) => {
      const t0 = performance.now();
      await side.client.assistants.update(ids[i % ids.length]!, { context: { model_name: `m-${i}` } });
      latencies.push(performance.now() - t0);
    });
    return { seconds, latencies };
  });
};

const reads: Phase = async (side) => {
  const ids = await benchAssistants(side);
  return timed(side, READS, async () => {
    const latencies: number[] = [];
    const seconds = await runLoops(READS, CONCURRENCY, async (i) => {
      const t0 = performance.now();
      await side.client.assistants.get(ids[i % ids.length]!);
      latencies.push(performance.now() - t0);
    });
    return { seconds, latencies };
  });
};

const ALL_PHASES: Array<{ key: string; name: string; phase: Phase; conc: number; rate: string }> = [
  { key: "runs", name: "background runs (thread+run+join)", phase: backgroundRuns, conc: CONCURRENCY, rate: "runs/s" },
  { key: "streams", name: "streamed runs (thread+stream)", phase: streamedRuns, conc: CONCURRENCY, rate: "runs/s" },
  { key: "first-bytes", name: "stream headers (metadata in extra)", phase: firstBytes, conc: 1, rate: "runs/s" },
  { key: "crud", name: "CRUD: assistant create+patch+search", phase: crudMix, conc: CONCURRENCY, rate: "ops/s" },
  { key: "patch", name: "assistant PATCH", phase: patches, conc: CONCURRENCY, rate: "ops/s" },
  { key: "read", name: "assistant GET (plain read)", phase: reads, conc: CONCURRENCY, rate: "ops/s" },
];
// BENCH_COMPARE_PHASES=crud,patch,read: only those phases (default: all).
const SELECTED = (process.env.BENCH_COMPARE_PHASES ?? "").split(",").map((key) => key.trim()).filter(Boolean);
const unknownPhases = SELECTED.filter((key) => !ALL_PHASES.some((phase) => phase.key === key));
if (unknownPhases.length > 0) throw new Error(`BENCH_COMPARE_PHASES: unknown ${unknownPhases.join(", ")}; known: ${ALL_PHASES.map((phase) => phase.key).join(", ")}`);
const PHASES = SELECTED.length > 0 ? ALL_PHASES.filter((phase) => SELECTED.includes(phase.key)) : ALL_PHASES;

function medianSample(samples: Sample[]): Sample {
  const sorted = [...samples].sort((a, b) => (a.per_s ?? 0) - (b.per_s ?? 0));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** Hangar's CPU profile (BENCH_CPU_PROF=1), warm-up and every phase included, by self time. */
function printCpuProfile(directory: string): void {
  const profile = busiestCpuProfile(directory);
  if (!profile) return;
  const summary = summarizeCpuProfile(profile);
  const rows = (list: typeof summary.by_package) => list.map((row) => ({ scenario: row.name, ms: row.self_ms, pct: row.pct }));
  printTable(`Hangar CPU profile (${summary.busy_ms} ms busy, start-up included; ${profile}): self time by package`, rows(summary.by_package), ["ms", "pct"]);
  printTable("Hangar CPU profile: self time by function", rows(summary.by_function), ["ms", "pct"]);
  printTable("Hangar CPU profile: inclusive time of the repository's functions", rows(summary.repo_inclusive), ["ms", "pct"]);
}

/** The baseline checkout's Hangar (BENCH_BASELINE) on a database of its own. */
async function startBaseline(stamp: string) {
  const database = await createBenchDatabase("compare_baseline");
  const server = await startServerProcess({
    configPath: CONFIG,
    databaseUrl: database.url,
    logPath: path.join(RESULTS_DIR, `compare-${stamp}-baseline.log`),
    repoRoot: BASELINE,
  }).catch(async (error: unknown) => {
    await database.drop();
    throw error;
  });
  return { database, server };
}

export async function compareSuite(stamp: string): Promise<void> {
  const database = await createBenchDatabase("compare");
  const hangarLog = path.join(RESULTS_DIR, `compare-${stamp}-hangar.log`);
  const officialLog = path.join(RESULTS_DIR, `compare-${stamp}-official.log`);
  const profileDir = CPU_PROFILE ? path.join(RESULTS_DIR, `compare-${stamp}-cpuprof`) : undefined;
  const hangarServer = await startServerProcess({ configPath: CONFIG, databaseUrl: database.url, logPath: hangarLog, cpuProfDir: profileDir });
  const official = await startOfficialServer({ configPath: CONFIG, jobsPerWorker: WORKER_CONCURRENCY, logPath: officialLog }).catch(async (error: unknown) => {
    await hangarServer.stop();
    await database.drop();
    throw error;
  });
  const sides: Side[] = [
    { name: "hangar", url: hangarServer.url, client: hangarServer.client(CONCURRENCY), cpuMs: () => hangarServer.cpuMs() },
    { name: "official", url: official.url, client: official.client(CONCURRENCY), cpuMs: () => official.cpuMs() },
  ];
  const baseline = BASELINE
    ? await startBaseline(stamp).catch(async (error: unknown) => {
        await Promise.all([hangarServer.stop(), official.stop()]);
        await database.drop();
        throw error;
      })
    : null;
  if (baseline) sides.push({ name: "baseline", url: baseline.server.url, client: baseline.server.client(CONCURRENCY), cpuMs: () => baseline.server.cpuMs() });
  const results: Array<{ phase: string; hangar: Sample[]; official: Sample[]; baseline: Sample[] }> = [];
  try {
    // Warm-up: both servers' hot paths optimized before anything is timed, every operation a
    // phase times among them. With 100 iterations and no search, Hangar's CRUD repeats kept getting
    // faster (1,368 → 2,395 ops/s over five repeats, its CPU per operation 0.49 → 0.23 ms) while
    // the official server's stayed within 1,311-1,870: the first repeats timed its warm-up.
    for (const side of sides) {
      await runLoops(WARMUP, CONCURRENCY, async (i) => {
        const thread = await side.client.threads.create();
        await side.client.runs.wait(thread.thread_id, GRAPH, { input: input(i) });
        for await (const _chunk of side.client.runs.stream(thread.thread_id, GRAPH, { input: input(i), streamMode: "values" })) {
          // drained: the streamed path warms too
        }
        const assistant = await side.client.assistants.create({ graphId: GRAPH, metadata: { warmup: i } });
        await side.client.assistants.update(assistant.assistant_id, { context: { warm: i } });
        await side.client.assistants.search({ metadata: { warmup: i }, limit: 10 });
        await side.client.assistants.get(assistant.assistant_id);
      });
    }
    for (const { name, phase } of PHASES) {
      const samples: { phase: string; hangar: Sample[]; official: Sample[]; baseline: Sample[] } = { phase: name, hangar: [], official: [], baseline: [] };
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        // Each side goes first in turn, and the order reverses every other cycle.
        const rotated = [...sides.slice(repeat % sides.length), ...sides.slice(0, repeat % sides.length)];
        const order = Math.floor(repeat / sides.length) % 2 === 0 ? rotated : rotated.reverse();
        for (const side of order) samples[side.name].push(await phase(side));
      }
      results.push(samples);
      console.log(`  ${name}: done (load ${os.loadavg()[0]!.toFixed(2)})`);
    }
  } finally {
    await Promise.all([hangarServer.stop(), official.stop(), baseline?.server.stop()]);
    await Promise.all([database.drop(), baseline?.database.drop()]);
  }

  const rows: ResultRow[] = [];
  const add = (scenario: string, hangar: number, officialValue: number, better: "higher" | "lower", load: number, baselineValue?: number) =>
    rows.push({
      scenario,
      hangar,
      official: officialValue,
      "hangar÷official": round(hangar / officialValue, 2),
      ...(baselineValue === undefined ? {} : { baseline: baselineValue, "hangar÷baseline": round(hangar / baselineValue, 2) }),
      better,
      load_1m: load,
    });
  const summary: Record<string, { hangar: Sample; official: Sample; baseline?: Sample }> = {};
  for (const [index, { phase, hangar, official: theirs, baseline: before }] of results.entries()) {
    const h = medianSample(hangar);
    const o = medianSample(theirs);
    const b = before.length > 0 ? medianSample(before) : undefined;
    summary[phase] = { hangar: h, official: o, baseline: b };
    const { conc, rate } = PHASES[index]!;
    const load = Math.max(h.load_1m, o.load_1m, b?.load_1m ?? 0);
    add(`${phase}, c=${conc}: ${rate}`, h.per_s!, o.per_s!, "higher", load, b?.per_s ?? undefined);
    add(`  p50 ms`, h.latency.p50_ms!, o.latency.p50_ms!, "lower", load, b?.latency.p50_ms);
    if (h.extra && o.extra) add(`  metadata event p50 ms`, h.extra.metadata_p50_ms!, o.extra.metadata_p50_ms!, "lower", load, b?.extra?.metadata_p50_ms);
    add(`  server CPU ms/op`, h.cpu_ms_per_op, o.cpu_ms_per_op, "lower", load, b?.cpu_ms_per_op);
    add(`  client cores (this process)`, h.client_cores, o.client_cores, "lower", load, b?.client_cores);
  }
  printTable(
    `Hangar (PostgreSQL) vs the official in-memory server (@langchain/langgraph-api): median of ${REPEATS} alternated repeats, ${os.cpus().length} cores`,
    rows,
    ["hangar", "official", "hangar÷official", ...(baseline ? ["baseline", "hangar÷baseline"] : []), "better", "load_1m"],
  );
  const crud = summary["CRUD: assistant create+patch+search"];
  const patch = summary["assistant PATCH"]?.hangar.latency.p50_ms;
  const read = summary["assistant GET (plain read)"]?.hangar.latency.p50_ms;
  const first = summary["stream headers (metadata in extra)"]?.hangar;
  const verdict = (met: boolean) => (met ? "met" : "MISSED");
  const targets: ResultRow[] = [];
  if (crud) {
    const ratio = round(crud.hangar.per_s! / crud.official.per_s!, 2);
    targets.push({ scenario: "CRUD ops/s ≥ 1.2× official", measured: ratio, verdict: verdict(ratio >= 1.2) });
  }
  if (patch !== undefined && read !== undefined) {
    targets.push({ scenario: "PATCH p50 ≤ 2× plain read p50 (Hangar)", measured: round(patch / read, 2), verdict: verdict(patch <= 2 * read) });
    const patchBefore = summary["assistant PATCH"]?.baseline?.latency.p50_ms;
    const readBefore = summary["assistant GET (plain read)"]?.baseline?.latency.p50_ms;
    if (patchBefore !== undefined && readBefore !== undefined) {
      targets.push({ scenario: "  the same, baseline", measured: round(patchBefore / readBefore, 2), verdict: verdict(patchBefore <= 2 * readBefore) });
    }
  }
  if (first) {
    targets.push({ scenario: "stream headers p50 ≤ 3 ms, c=1", measured: first.latency.p50_ms!, verdict: verdict(first.latency.p50_ms! <= 3) });
    targets.push({ scenario: "stream metadata event p50 ≤ 3 ms, c=1", measured: first.extra!.metadata_p50_ms!, verdict: verdict(first.extra!.metadata_p50_ms! <= 3) });
  }
  if (targets.length > 0) printTable("Targets (issue 31)", targets, ["measured", "verdict"]);
  if (profileDir) printCpuProfile(profileDir);
  const file = writeResults("compare", stamp, {
    suite: "compare",
    settings: { baseline: BASELINE ?? null, concurrency: CONCURRENCY, repeats: REPEATS, runs: RUNS, crud: CRUD, reads: READS, streams_c1: STREAMS_C1, official_jobs: WORKER_CONCURRENCY, node: process.version, repo: repoState() },
    phases: results,
    targets,
  });
  console.log(`\ncompare results: ${file} (server logs: ${hangarLog}, ${officialLog})`);
}
