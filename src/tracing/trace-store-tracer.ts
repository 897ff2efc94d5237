import { mergeUsageMetadata, type UsageMetadata } from "@langchain/core/messages";
import { BaseTracer, type Run as TracedRun } from "@langchain/core/tracers/base";
import { jsonObjectOrEmpty, type JsonObject } from "../domain/json.js";
import type { LangSmithRunWire } from "./ingest/langsmith-wire.js";

/** Where the tracer sends runs: the LangSmith client methods it would otherwise call. */
export interface TraceRunSink {
  createRun(run: LangSmithRunWire): void;
  updateRun(runId: string, run: LangSmithRunWire): void;
}

/**
 * A LangChain callback tracer that hands runs to the trace store in LangSmith's wire shape.
 *
 * LangChain's own LangChainTracer sends the same runs, but builds a langsmith RunTree per run
 * (twice: one in its run map, one copy per post or patch). In the run bench that cost the server
 * about 2 ms of CPU per one-node run, with the RunTree constructor alone at 5% of all CPU; this
 * tracer works on BaseTracer's plain run objects. It keeps what LangChainTracer adds on the way:
 * the tracer's metadata merged into every run's extra.metadata, and a chat model's usage_metadata
 * (summed over its generations) in extra.metadata.usage_metadata.
 */
export class TraceStoreTracer extends BaseTracer {
  name = "hangar_trace_store_tracer";
  // Called in line, not queued: LangChain otherwise runs every callback of a handler through one
  // process-wide p-queue (a task, its promises and events per callback), while these only hand
  // the run to the recorder's own queue. The echo graph in-process with a no-op tracer, six
  // alternated pairs: 1.56 ms of CPU per run queued, 1.38 ms in line. In line, the root run's
  // final patch is also in before the graph's stream ends (trace-recorder.ts).
  override awaitHandlers = true;

  constructor(
    private readonly sink: TraceRunSink,
    private readonly metadata: JsonObject,
  ) {
    super();
  }

  protected async persistRun(): Promise<void> {
    // Runs are handed over as they start and end (onRunCreate / onRunUpdate), not at the end.
  }

  async onRunCreate(run: TracedRun): Promise<void> {
    // Inputs a run defers (lc_defers_inputs) only exist once it ends: it is posted whole then.
    if (run.extra?.lc_defers_inputs) return;
    this.sink.createRun(this.toWire(run));
  }

  async onRunUpdate(run: TracedRun): Promise<void> {
    if (run.extra?.lc_defers_inputs) this.sink.createRun(this.toWire(run));
    else this.sink.updateRun(run.id, this.toWire(run));
  }

  async onLLMEnd(run: TracedRun): Promise<void> {
    const usage = summedUsage(run.outputs?.generations);
    if (usage === undefined) return;
    run.extra ??= {};
    run.extra.metadata = { ...jsonObjectOrEmpty(run.extra.metadata), usage_metadata: usage };
  }

  private toWire(run: TracedRun): LangSmithRunWire {
    const metadata = { ...this.metadata, ...jsonObjectOrEmpty(run.extra?.metadata) };
    return {
      id: run.id,
      trace_id: run.trace_id,
      parent_run_id: run.parent_run_id,
      dotted_order: run.dotted_order,
      name: run.name,
      run_type: run.run_type,
      start_time: run.start_time,
      end_time: run.end_time,
      inputs: run.inputs,
      outputs: run.outputs,
      extra: { ...run.extra, metadata },
      events: run.events,
      serialized: run.serialized,
      error: run.error,
      tags: run.tags,
    };
  }
}

/** usage_metadata of every chat generation, summed (undefined when none reports usage). */
function summedUsage(generations: unknown): UsageMetadata | undefined {
  if (!Array.isArray(generations)) return undefined;
  let total: UsageMetadata | undefined;
  for (const batch of generations) {
    if (!Array.isArray(batch)) continue;
    for (const generation of batch) {
      const usage = (generation as { message?: { usage_metadata?: UsageMetadata } })?.message?.usage_metadata;
      if (!usage) continue;
      total = mergeUsageMetadata(total, usage);
    }
  }
  return total;
}
