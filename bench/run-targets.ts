/**
 * The run engine's targets (issue "Run engine", item 10) checked against one bench run, so the
 * verdict is printed by the bench instead of worked out by hand.
 *
 * This VM's speed drifts ±15% from minute to minute, so the throughput target is judged on the
 * median of several repeats of the c=16 phase, with the lowest shown beside it. For the c=16
 * latency, Little's law is printed too: a closed loop of N clients with no think time has a mean
 * create→join latency of N ÷ throughput, whatever the server does.
 */
import { printTable, round, type ResultRow } from "./bench-kit.js";

export const TARGET_RUNS_PER_SECOND = 250;
export const TARGET_P50_CREATE_TO_JOIN_MS = 30;
export const TARGET_JOIN_AFTER_RUN_END_MS = 5;
/** Issue 31, target 1: the server's CPU per run at c=16 over LangGraph's own, in-process. */
export const TARGET_CPU_PER_RUN_RATIO = 1.6;
/** Issue 31, target 3: join returns within this of the run's end (p50) at c=16. */
export const ISSUE_31_JOIN_AFTER_RUN_END_MS = 3;

/** Figures a suite hands back for targets that need two suites (bench/run.ts). */
export interface SuiteFigures {
  /** `graph`: LangGraph's CPU per run in-process, median of the probe's repeats. */
  langgraphCpuMsPerRun?: number;
  /** `runs`: this build's server CPU per run at c=16, median of the repeats (not in split mode). */
  serverCpuMsPerRunC16?: number;
  /** `runs`: each c=16 repeat's server CPU per run with the probe's, measured just before it. */
  pairedCpuPerRun?: Array<{ server: number; langgraph: number }>;
}

interface PhaseSummary {
  concurrency: number;
  paced_rate: number | null;
  runs_per_second: number;
  create_to_join: Record<string, number>;
  join_after_run_end: Record<string, number>;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function verdict(met: boolean): string {
  return met ? "met" : "MISSED";
}

/** Prints one row per target and per phase it applies to; returns the rows (for the JSON). */
export function printRunTargets(repeatRates: number[], phases: PhaseSummary[]): ResultRow[] {
  const medianRate = round(median(repeatRates), 1);
  const rows: ResultRow[] = [
    {
      scenario: `runs/s at c=16 ≥ ${TARGET_RUNS_PER_SECOND} (median of ${repeatRates.length}; lowest ${Math.min(...repeatRates)})`,
      measured: medianRate,
      verdict: verdict(medianRate >= TARGET_RUNS_PER_SECOND),
    },
  ];
  for (const phase of phases) {
    const load = phase.paced_rate ? `paced ${phase.paced_rate}/s` : `c=${phase.concurrency}`;
    const p50 = phase.create_to_join.p50_ms!;
    rows.push({
      scenario: `p50 create→join ≤ ${TARGET_P50_CREATE_TO_JOIN_MS} ms, ${load}`,
      measured: p50,
      verdict: verdict(p50 <= TARGET_P50_CREATE_TO_JOIN_MS),
    });
    const gap = phase.join_after_run_end.p50_ms!;
    rows.push({
      scenario: `p50 join return − run end ≤ ${TARGET_JOIN_AFTER_RUN_END_MS} ms, ${load}`,
      measured: gap,
      verdict: verdict(gap <= TARGET_JOIN_AFTER_RUN_END_MS),
    });
    if (!phase.paced_rate && phase.concurrency === 16) {
      rows.push({
        scenario: `p50 join return − run end ≤ ${ISSUE_31_JOIN_AFTER_RUN_END_MS} ms, c=16 (issue 31)`,
        measured: gap,
        verdict: verdict(gap <= ISSUE_31_JOIN_AFTER_RUN_END_MS),
      });
    }
  }
  printTable("Targets", rows, ["measured", "verdict"]);
  const closedLoop = phases.find((phase) => !phase.paced_rate && phase.concurrency > 1);
  if (closedLoop) {
    const littleMs = round((1000 * closedLoop.concurrency) / closedLoop.runs_per_second, 1);
    const neededRate = round((1000 * closedLoop.concurrency) / TARGET_P50_CREATE_TO_JOIN_MS);
    console.log(
      `Little's law, c=${closedLoop.concurrency} closed loop: mean create→join = ${closedLoop.concurrency} ÷ ${closedLoop.runs_per_second} runs/s = ${littleMs} ms; ` +
        `a ${TARGET_P50_CREATE_TO_JOIN_MS} ms mean there needs ${neededRate} runs/s.`,
    );
  }
  return rows;
}

/**
 * Target 1 of issue 31. Judged on the `runs` suite's pairs (each c=16 repeat with a probe run
 * just before it); when the bench also ran the `graph` suite, the ratio of the two suites'
 * medians, measured minutes apart, is shown beside it.
 */
export function printCpuPerRunTarget(figures: SuiteFigures): ResultRow[] {
  const { langgraphCpuMsPerRun: langgraph, serverCpuMsPerRunC16: server, pairedCpuPerRun: pairs = [] } = figures;
  const rows: ResultRow[] = [];
  if (pairs.length > 0) {
    // Judged: each repeat over the probe run just before it, then the median of those ratios.
    const ratios = pairs.map((pair) => pair.server / pair.langgraph);
    const ratio = round(median(ratios), 2);
    const each = pairs.map((pair) => `${round(pair.server, 2)}÷${round(pair.langgraph, 2)}`).join(", ");
    rows.push({
      scenario: `server CPU per run at c=16 ÷ LangGraph in-process ≤ ${TARGET_CPU_PER_RUN_RATIO}, paired (median of ${pairs.length}: ${each} ms)`,
      measured: ratio,
      verdict: verdict(ratio <= TARGET_CPU_PER_RUN_RATIO),
    });
  }
  if (langgraph !== undefined && server !== undefined) {
    const ratio = round(server / langgraph, 2);
    rows.push({
      scenario: `server CPU per run at c=16 ÷ LangGraph in-process ≤ ${TARGET_CPU_PER_RUN_RATIO}, medians of the two suites (${round(server, 3)} ÷ ${round(langgraph, 3)} ms)`,
      measured: ratio,
      // The paired figure, when there is one, is the verdict: these medians are minutes apart.
      verdict: pairs.length > 0 ? "(see paired)" : verdict(ratio <= TARGET_CPU_PER_RUN_RATIO),
    });
  }
  if (rows.length > 0) printTable("Targets across suites (issue 31)", rows, ["measured", "verdict"]);
  return rows;
}
