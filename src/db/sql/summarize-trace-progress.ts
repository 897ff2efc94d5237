import type { EntityManager } from "typeorm";
import type { TraceProgress } from "../../domain/trace-run.js";
import { GRAPH_INTERRUPT_SQL_PATTERN } from "../../domain/trace-run-status.js";
import { utc } from "./trace-run-columns.js";
import { runStatement } from "../run-statement.js";

/**
 * Per trace: the earliest first token of its runs and whether one of them stopped in a LangGraph
 * interrupt, one grouped query for all keys over the trace_id index. Traces without runs are
 * absent from the map. Reads only.
 */
export async function summarizeTraceProgress(manager: EntityManager, traceIds: readonly string[]): Promise<Map<string, TraceProgress>> {
  if (traceIds.length === 0) return new Map();
  const { rows } = await runStatement<{ trace_id: string; first_token_time: string | null; has_graph_interrupt: boolean }>(
    manager,
    `SELECT trace_id, ${utc("min(first_token_time)")} AS first_token_time,
            coalesce(bool_or(error ~ $2), false) AS has_graph_interrupt
     FROM trace_runs WHERE trace_id = ANY($1::uuid[]) GROUP BY trace_id`,
    [traceIds, GRAPH_INTERRUPT_SQL_PATTERN],
  );
  return new Map(rows.map((row) => [row.trace_id, { firstTokenTime: row.first_token_time, hasGraphInterrupt: row.has_graph_interrupt }]));
}
