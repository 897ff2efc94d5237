/** A trace's runs (as Trace.runs lists them, depth first) laid out as an indented waterfall. */

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

export function layoutTraceTree<T extends TraceRunLike>(runs: readonly T[]): TraceTreeRow<T>[] {
  // dotted_order sorts runs depth first in execution order; the API already lists them so, but a
  // second page appended later must fall into place too.
  const ordered = [...runs].sort((a, b) => (a.dottedOrder ?? "").localeCompare(b.dottedOrder ?? ""));
  const byId = new Map(ordered.map((run) => [run.traceRunId, run]));
  const parents = new Set(ordered.map((run) => run.parentRunId).filter((id): id is string => Boolean(id)));
  const depthCache = new Map<string, number>();
  const depthOf = (run: T, guard = 0): number => {
    const cached = depthCache.get(run.traceRunId);
    if (cached !== undefined) return cached;
    const parent = run.parentRunId ? byId.get(run.parentRunId) : undefined;
    const depth = parent && guard < 64 ? depthOf(parent, guard + 1) + 1 : 0;
    depthCache.set(run.traceRunId, depth);
    return depth;
  };

  const starts = ordered.map((run) => Date.parse(run.startTime));
  const ends = ordered.map((run, index) => starts[index] + (run.latencyMs ?? 0));
  const traceStart = Math.min(...starts);
  const span = Math.max(1, Math.max(...ends) - traceStart);
  return ordered.map((run, index) => ({
    run,
    depth: depthOf(run),
    hasChildren: parents.has(run.traceRunId),
    offset: (starts[index] - traceStart) / span,
    width: Math.max(0.004, (run.latencyMs ?? 0) / span),
  }));
}
