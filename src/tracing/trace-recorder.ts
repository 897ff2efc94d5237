import type { Run } from "../domain/run.js";
import type { ServiceContext } from "../services/service-context.js";
import { tracesService } from "../services/traces.service.js";
import type { TraceRunOperation } from "../services/traces/trace-run.js";
import { runOperationFromWire, type LangSmithRunWire } from "./ingest/langsmith-wire.js";
import { TraceStoreTracer, type TraceRunSink } from "./trace-store-tracer.js";

// Trace operations of all runs are written together: one ingest (3 statements) per flush instead
// of one per node or model call. 50 ms keeps traces near-live in the console.
const FLUSH_DELAY_MS = 50;
const FLUSH_BATCH_SIZE = 1_000;
// LangChain runs callback handlers in the background, so the root run's final patch can arrive
// just after the graph's stream has ended; a run waits at most this long for it.
const ROOT_PATCH_WAIT_MS = 1_000;

/**
 * Records Hangar's own graph runs in the trace store. Each run gets a callback tracer that shapes
 * runs as LangSmith receives them (the graph run as the root — its id is Hangar's run_id — nodes
 * and model calls as children, usage_metadata, ls_model_name, new_token events; see
 * trace-store-tracer.ts), and hands them to this recorder, which batches them into tracesService.
 */
export class TraceRecorder {
  private posts: TraceRunOperation[] = [];
  private patches: TraceRunOperation[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  /** Hangar runs whose root trace run has not been patched (ended) yet. */
  private readonly openRoots = new Map<string, () => void>();

  private readonly sink: TraceRunSink = {
    createRun: (run: LangSmithRunWire) => this.add(this.posts, run, run.id),
    updateRun: (runId: string, run: LangSmithRunWire) => {
      this.add(this.patches, run, runId);
      this.openRoots.get(runId)?.();
    },
  };

  constructor(private readonly ctx: ServiceContext) {}

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
   * Called when a Hangar run has ended: waits (briefly) for its root trace run's final patch, then
   * stores what was recorded, so the run's trace is complete once the run is reported finished.
   */
  async completeRun(runId: string): Promise<void> {
    const rootEnded = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ROOT_PATCH_WAIT_MS);
      this.openRoots.set(runId, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    if (!this.patches.some((patch) => patch.id === runId)) await rootEnded;
    this.openRoots.delete(runId);
    await this.flush();
  }

  /** Writes everything recorded so far; resolves once it is stored. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const posts = this.posts;
    const patches = this.patches;
    this.posts = [];
    this.patches = [];
    this.flushing = this.flushing.then(async () => {
      if (posts.length === 0 && patches.length === 0) return;
      try {
        // A patch whose post is in an earlier batch (a node running past one flush) updates a
        // stored run; otherwise every run of the batch is new.
        const postedNow = new Set(posts.map((post) => post.id));
        const allNew = patches.every((patch) => postedNow.has(patch.id));
        await tracesService.ingest(this.ctx, { posts, patches, allNew });
      } catch (error) {
        // Losing a trace must never fail the run it describes.
        this.ctx.log.error({ err: error, posts: posts.length, patches: patches.length }, "could not record graph traces");
      }
    });
    return this.flushing;
  }

  private add(target: TraceRunOperation[], run: LangSmithRunWire, id: string | undefined): void {
    if (!id) return;
    target.push(runOperationFromWire(run, id));
    if (this.posts.length + this.patches.length >= FLUSH_BATCH_SIZE) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
  }
}
