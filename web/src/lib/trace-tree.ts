/** A trace's runs laid out as an indented waterfall: each run under its parent, in execution order. */

export interface TraceRunLike {
  traceRunId: string;
  parentRunId?: string | null;
  dottedOrder?: string | null;
  startTime: string;
  latencyMs?: number | null;
}

export interface TraceTreeRow<T extends TraceRunLike> {
  run: T;
  depth: number;
  hasChildren: boolean;
  /** Where the run's bar starts and how wide it is, as fractions of the whole trace's span. */
  offset: number;
  width: number;
}

/**
 * Walks the tree from parent links rather than trusting one sort key: clients do not always send
 * dotted_order, and a run whose parent is missing (not sent yet, or past the page) still shows,
 * as a top-level row. Siblings run in dotted_order when both have one, else by start time.
 */
export function layoutTraceTree<T extends TraceRunLike>(runs: readonly T[]): TraceTreeRow<T>[] {
  const ids = new Set(runs.map((run) => run.traceRunId));
  const childrenOf = new Map<string | null, T[]>();
  for (const run of runs) {
    const parent = run.parentRunId && ids.has(run.parentRunId) ? run.parentRunId : null;
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), run]);
  }
  for (const siblings of childrenOf.values()) siblings.sort(executionOrder);

  const { startMs: traceStart, spanMs: span } = traceSpan(runs);

  const rows: TraceTreeRow<T>[] = [];
  const visit = (run: T, depth: number) => {
    const children = childrenOf.get(run.traceRunId) ?? [];
    rows.push({
      run,
      depth,
      hasChildren: children.length > 0,
      offset: (Date.parse(run.startTime) - traceStart) / span,
      width: Math.max(0.004, (run.latencyMs ?? 0) / span),
    });
    for (const child of children) visit(child, depth + 1);
  };
  for (const root of childrenOf.get(null) ?? []) visit(root, 0);
  // Runs whose parent links form a cycle (malformed input) are reachable from no root: shown last,
  // at the top level, rather than dropped. Each run is visited once, so the walk always ends.
  const shown = new Set(rows.map((row) => row.run.traceRunId));
  for (const run of runs) if (!shown.has(run.traceRunId)) rows.push({ run, depth: 0, hasChildren: false, offset: 0, width: 0.004 });
  return rows;
}

/** When the trace's first run started (epoch ms) and how long until its last one ended (at least 1 ms). */
export function traceSpan(runs: readonly TraceRunLike[]): { startMs: number; spanMs: number } {
  const starts = runs.map((run) => Date.parse(run.startTime));
  const startMs = Math.min(...starts);
  const spanMs = Math.max(1, ...runs.map((run, index) => starts[index] + (run.latencyMs ?? 0) - startMs));
  return { startMs, spanMs };
}

function executionOrder(a: TraceRunLike, b: TraceRunLike): number {
  if (a.dottedOrder && b.dottedOrder) return a.dottedOrder.localeCompare(b.dottedOrder);
  return Date.parse(a.startTime) - Date.parse(b.startTime);
}
