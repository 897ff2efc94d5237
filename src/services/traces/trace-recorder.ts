import { GroupCommit } from "../../db/group-commit.js";
import { AppError, coerceError } from "../../domain/errors.js";
import { jsonObjectOrEmpty } from "../../domain/json.js";
import type { Run } from "../../domain/run.js";
import type { ServiceContext } from "../service-context.js";
import { tracesService } from "../traces.service.js";
import type { TraceRunOperation } from "../../domain/trace-run.js";
import { runOperationFromWire, type LangSmithRunWire } from "../../tracing/ingest/langsmith-wire.js";
import { toTraceJson } from "../../tracing/trace-json.js";
import { TraceStoreTracer, type TraceRunSink } from "../../tracing/trace-store-tracer.js";

// Trace operations of all runs are written together: one ingest (3 statements) per flush instead
// of one per node or model call. 50 ms keeps traces near-live in the console.
const FLUSH_DELAY_MS = 50;
const FLUSH_BATCH_SIZE = 1_000;

/**
 * Records Hangar's own graph runs in the trace store. Each run gets a callback tracer that shapes
 * runs as LangSmith receives them (the graph run as the root — its id is Hangar's run_id — nodes
 * and model calls as children, usage_metadata, ls_model_name, new_token events; see
 * trace-store-tracer.ts), and hands them to this recorder, which batches them into tracesService.
 */
export class TraceRecorder {
  /** Posts (new trace runs) and patches (their ends), in the order the tracers sent them. */
  private readonly pending: GroupCommit<PendingOperation>;
  /**
   * Posts no round has taken yet, by run id. A run that ends before its post is written (most
   * nodes: a round starts at the run's end or after 50 ms) is written as one complete post: the
   * tracer's end is the whole run (trace-store-tracer.ts), so its post and patch would carry the
   * same fields twice, and twice the normalizing, merging and JSON for PostgreSQL to parse.
   */
  private readonly unwrittenPosts = new Map<string, PendingOperation>();
  private hasWarnedAboutConversion = false;

  private readonly sink: TraceRunSink = {
    createRun: (run: LangSmithRunWire) => this.add(run, run.id, true),
    updateRun: (runId: string, run: LangSmithRunWire) => this.add(run, runId, false),
  };

  constructor(private readonly ctx: ServiceContext) {
    this.pending = new GroupCommit({
      write: (batch) => this.store(batch),
      delayMs: FLUSH_DELAY_MS,
      maxBatch: FLUSH_BATCH_SIZE,
      // Losing a trace must never fail the run it describes.
      onError: (error, operations) => this.ctx.log.error({ err: error, operations }, "could not record graph traces"),
    });
  }

  /** The LangChain callback handler that traces one Hangar run. */
  tracerFor(run: Run): TraceStoreTracer {
    return new TraceStoreTracer(this.sink, {
      run_id: run.runId,
      thread_id: run.threadId,
      assistant_id: run.assistantId,
      graph_id: run.kwargs.graphId,
    });
  }

  /**
   * Called when a Hangar run's graph has ended: stores what was recorded, so the run's trace is
   * complete once the run is reported finished. Its root run's final patch is in by then: the
   * tracer's callbacks run in line (trace-store-tracer.ts), before the graph's stream ends.
   */
  completeRun(): Promise<void> {
    return this.flush();
  }

  /** Writes everything recorded so far; resolves once it is stored. */
  flush(): Promise<void> {
    return this.pending.flush();
  }

  private async store(batch: ReadonlyArray<PendingOperation>): Promise<void> {
    // Taken by this round (synchronously, as it starts): an end arriving from now on is a patch.
    for (const entry of batch) if (entry.isPost) this.unwrittenPosts.delete(entry.operation.id);
    const posts = batch.filter((entry) => entry.isPost).map((entry) => entry.operation);
    const patches = batch.filter((entry) => !entry.isPost).map((entry) => entry.operation);
    // A patch whose post is in an earlier batch (a node running past one round) updates a stored
    // run; otherwise every run of the batch is new.
    const postedNow = new Set(posts.map((post) => post.id));
    const allNew = patches.every((patch) => postedNow.has(patch.id));
    // Each run's settle commits after its trace is stored, and its flush makes the trace durable.
    const options = { flushedByRunSettle: true };
    try {
      await tracesService.ingest(this.ctx, { posts, patches, allNew }, options);
    } catch (error) {
      // Refused input and an unavailable database are not about the payloads: nothing to convert.
      if (error instanceof AppError) throw error;
      // The payloads are the graph's live objects; one of them JSON could not take (a cycle, a
      // BigInt, a throwing toJSON). Converting every payload up front would cost each batch a
      // second walk, so only a batch that failed is converted, and then stored whole.
      this.warnOnceAboutConversion(error);
      await tracesService.ingest(this.ctx, { posts: posts.map(withTraceJsonPayloads), patches: patches.map(withTraceJsonPayloads), allNew }, options);
    }
  }

  private warnOnceAboutConversion(error: unknown): void {
    if (this.hasWarnedAboutConversion) return;
    this.hasWarnedAboutConversion = true;
    this.ctx.log.warn(
      { err: coerceError(error) },
      "graph trace payloads hold values JSON cannot represent (cycles, BigInt, ...); they are stored with LangSmith's markers, such as {\"result\":\"[Circular]\"} (logged once)",
    );
  }

  private add(run: LangSmithRunWire, id: string | undefined, isPost: boolean): void {
    if (!id) return;
    const operation = runOperationFromWire(run, id);
    const unwrittenPost = isPost ? undefined : this.unwrittenPosts.get(id);
    if (unwrittenPost) {
      unwrittenPost.operation = operation;
      return;
    }
    const entry = { operation, isPost };
    if (isPost) this.unwrittenPosts.set(id, entry);
    this.pending.add(entry);
  }
}

interface PendingOperation {
  operation: TraceRunOperation;
  isPost: boolean;
}

/** The operation with its payloads as LangSmith's client would store them (see trace-json.ts). */
function withTraceJsonPayloads(operation: TraceRunOperation): TraceRunOperation {
  return {
    ...operation,
    inputs: toTraceJson(operation.inputs),
    outputs: toTraceJson(operation.outputs),
    extra: operation.extra == null ? operation.extra : jsonObjectOrEmpty(toTraceJson(operation.extra)),
    events: operation.events == null ? operation.events : (toTraceJson(operation.events) as unknown[]),
    serialized: toTraceJson(operation.serialized),
  };
}
