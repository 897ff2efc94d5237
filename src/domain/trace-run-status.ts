/**
 * A trace run's status when the tracer sent none: pending until it ends, then error or success,
 * except that a LangGraph interrupt is no failure. `interrupt()` (and NodeInterrupt) stop a node
 * by throwing GraphInterrupt, which LangChain's tracers record as the run's error; such a run is
 * "interrupted": waiting for input, not broken. LangSmith's wire has no such status: read back
 * through it (`vocabulary: "langsmith"`), the run says "error", as LangSmith answers.
 */
export function traceRunStatus(
  run: { status: string | null; error: string | null; endTime: string | null },
  vocabulary: "hangar" | "langsmith" = "hangar",
): string {
  if (run.status !== null) return run.status;
  if (run.error !== null) return vocabulary === "hangar" && isGraphInterruptError(run.error) ? "interrupted" : "error";
  return run.endTime !== null ? "success" : "pending";
}

/**
 * A trace's root run (the graph run) in Hangar's vocabulary. When a node calls interrupt(), the
 * graph stops but LangGraph ends its root run as a success with the state so far (Pregel catches
 * the GraphInterrupt its node threw); the trace waits for an answer, so a root that ended well in
 * a trace where a run was interrupted is "interrupted", like that run.
 */
export function rootTraceRunStatus(
  run: { status: string | null; error: string | null; endTime: string | null },
  trace: { hasGraphInterrupt: boolean } | null,
): string {
  const status = traceRunStatus(run);
  return status === "success" && trace?.hasGraphInterrupt ? "interrupted" : status;
}

/**
 * LangGraph's interrupt as a tracer writes it: LangChain JS appends the error's stack, whose first
 * line is `GraphInterrupt: …` or `NodeInterrupt: …`; Python's tracer writes the exception's repr,
 * `GraphInterrupt(…)`.
 */
const GRAPH_INTERRUPT = /(^|\n)(GraphInterrupt|NodeInterrupt)(: |\()/;

/** The same test as a PostgreSQL regular expression (`error ~ …`), for filters run in SQL. */
export const GRAPH_INTERRUPT_SQL_PATTERN = GRAPH_INTERRUPT.source;

export function isGraphInterruptError(error: string): boolean {
  return GRAPH_INTERRUPT.test(error);
}

/**
 * The interrupts' values an interrupted run carries: LangChain JS's error text begins with
 * GraphInterrupt's message, the interrupts as JSON. null when that text is not JSON.
 */
export function graphInterruptValues(error: string): unknown[] | null {
  if (!isGraphInterruptError(error)) return null;
  const message = error.split(/\n\n(?:GraphInterrupt|NodeInterrupt): /)[0] ?? "";
  try {
    const parsed: unknown = JSON.parse(message);
    return Array.isArray(parsed) ? parsed.map((item: unknown) => (isValueHolder(item) ? item.value : item)) : null;
  } catch {
    return null;
  }
}

function isValueHolder(item: unknown): item is { value: unknown } {
  return typeof item === "object" && item !== null && "value" in item;
}
