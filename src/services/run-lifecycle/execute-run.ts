import { jsonObjectOrEmpty } from "../../domain/json.js";
import { runMetadataEvent, type RunStreamEvent } from "../../domain/run-event.js";
import type { Run, RunStatus } from "../../domain/run.js";
import { toGraphCommand } from "../../graphs/graph-library.js";
import { withGraphLogFields } from "../../graphs/graph-logger.js";
import { isConnectionLoss } from "../../db/connection-loss.js";
import { pingDatabase } from "../../db/sql/ping-database.js";
import { stringifyWireValue } from "../../graphs/serialize-graph-value.js";
import type { ServiceContext } from "../service-context.js";
import { streamGraph } from "./stream-graph.js";

/** Why a run was aborted from outside: a user's cancel, shutdown, or losing the lease. */
export type AbortReason = "interrupt" | "rollback" | "shutdown" | "lease-lost";

export type ExecutionResult =
  | { kind: "finished"; status: Extract<RunStatus, "success" | "error" | "interrupted">; error: { error: string; message: string } | null }
  | { kind: "rolled-back" }
  | { kind: "released" };

/** The run as it will be executed: streamed events are numbered from `firstSeq`. */
export interface RunExecution {
  run: Run;
  signal: AbortSignal;
  firstSeq: number;
  /** Extra LangChain callbacks for this run (the trace recorder). */
  callbacks?: unknown[];
  /**
   * Called once the graph has streamed its last event without failing, before its checkpoints
   * are known to be committed: the caller stores the run's output meanwhile.
   */
  onGraphEnd?: () => void;
  /**
   * Where events from the graph's first interrupt on are kept instead of published (they are
   * stored as usual); settleRun publishes them once the run's outcome is recorded. A client that
   * stops reading at the interrupt (RemoteGraph throws GraphInterrupt at that update) and resumes
   * at once then finds the run ended, not busy.
   */
  heldEvents?: RunStreamEvent[];
}

/**
 * Executes one claimed run and streams its events (bus + replay store). Never throws: a failing
 * graph is a run outcome (`error`, with an `error` event), and an abort maps to the outcome its
 * reason asks for. Persisting the outcome is the caller's job (attemptRun, run-attempt.ts), so
 * that execution, settle and release of an attempt stay in one place.
 */
export function executeRun(ctx: ServiceContext, execution: RunExecution): Promise<ExecutionResult> {
  const { run } = execution;
  const logFields = { run_id: run.runId, thread_id: run.threadId, assistant_id: run.assistantId, graph_id: run.kwargs.graphId };
  return withGraphLogFields(logFields, () => executeInLogContext(ctx, execution));
}

async function executeInLogContext(ctx: ServiceContext, execution: RunExecution): Promise<ExecutionResult> {
  const { run, signal } = execution;
  const { store } = ctx.streaming;
  let seq = execution.firstSeq - 1;
  let holding = false;
  const record = (streamEvent: RunStreamEvent) => {
    holding ||= execution.heldEvents !== undefined && isInterruptUpdate(streamEvent);
    if (holding) execution.heldEvents!.push(streamEvent);
    store.append(streamEvent, !holding);
  };
  const emit = (event: string, data: unknown) => {
    seq += 1;
    record({ runId: run.runId, threadId: run.threadId, seq, event, data: stringifyWireValue(data) });
  };

  seq += 1;
  record(runMetadataEvent(run, run.attempt, seq));
  try {
    const { kwargs } = run;
    const graph = await ctx.graphs.resolve(kwargs.graphId, {
      config: kwargs.config,
      checkpointer: ctx.db.checkpointer,
      store: ctx.db.store,
    });
    const runIdentity = {
      run_id: run.runId,
      thread_id: run.threadId,
      assistant_id: run.assistantId,
      graph_id: kwargs.graphId,
    };
    const configurable: Record<string, unknown> = { ...jsonObjectOrEmpty(kwargs.config.configurable), ...runIdentity };
    if (kwargs.checkpointId) configurable.checkpoint_id = kwargs.checkpointId;
    if (kwargs.checkpointNs) configurable.checkpoint_ns = kwargs.checkpointNs;
    // The SDK types the run's config as LangGraph Platform's (snake_case recursion_limit);
    // LangGraph JS reads recursionLimit.
    const { recursion_limit: recursionLimit, ...config } = kwargs.config;
    const options: Record<string, unknown> = {
      ...(typeof recursionLimit === "number" ? { recursionLimit } : {}),
      ...config,
      configurable,
      // metadata.run_id also stamps checkpoints, which is how a retried run resumes (checkpointer.ts).
      metadata: { ...jsonObjectOrEmpty(kwargs.config.metadata), ...run.metadata, ...runIdentity, attempt: run.attempt },
      context: kwargs.context,
      signal,
      callbacks: [...((kwargs.config.callbacks as unknown[]) ?? []), ...(execution.callbacks ?? [])],
    };
    if (kwargs.interruptBefore) options.interruptBefore = kwargs.interruptBefore;
    if (kwargs.interruptAfter) options.interruptAfter = kwargs.interruptAfter;
    if (kwargs.durability) options.durability = kwargs.durability;
    // A retried run restarts with its original input: LangGraph sees its own run_id on the latest
    // checkpoint and resumes from there instead of applying the input again.
    // A command is built from the graph's own LangGraph copy, or its instanceof checks fail.
    const input = kwargs.command ? toGraphCommand(ctx.graphs.libraryOf(kwargs.graphId), kwargs.command) : kwargs.input;

    for await (const event of streamGraph(graph, {
      input,
      options,
      modes: kwargs.streamModes,
      subgraphs: kwargs.streamSubgraphs,
      rootRunId: run.runId,
    })) {
      emit(event.event, event.data);
    }
    if (signal.aborted) return abortedResult(signal);
    execution.onGraphEnd?.();
    // Checkpoints may have been acknowledged when queued (checkpointer.ts): a run succeeds only
    // once they are committed, and fails like a graph error if one could not be.
    await ctx.db.checkpointer.writesCommitted(run.runId);
    return { kind: "finished", status: "success", error: null };
  } catch (error) {
    if (signal.aborted) return abortedResult(signal);
    if (isConnectionLoss(error) && !(await isDatabaseReachable(ctx))) {
      // Hangar's own database went away under the graph (a checkpoint read or write outlasted its
      // retries), which says nothing about the graph: the run goes back to the queue and resumes
      // from its last committed checkpoint. Probing first keeps a graph's own failing calls (an
      // API refusing connections) ordinary errors, so they cannot requeue a run forever.
      ctx.log.warn({ err: error, runId: run.runId }, "the database went away during a run; handing it back to the queue");
      return { kind: "released" };
    }
    const failure = describeFailure(error);
    ctx.log.warn({ err: error, runId: run.runId }, "run failed");
    emit("error", failure);
    return { kind: "finished", status: "error", error: failure };
  }
}

/** An `updates` event (of the graph or a subgraph) announcing an interrupt: `{"__interrupt__": …}`. */
function isInterruptUpdate(event: RunStreamEvent): boolean {
  return (event.event === "updates" || event.event.startsWith("updates|")) && event.data.startsWith('{"__interrupt__"');
}

async function isDatabaseReachable(ctx: ServiceContext): Promise<boolean> {
  try {
    await pingDatabase(ctx.db.pool);
    return true;
  } catch {
    return false; // the probe's error is the answer
  }
}

function abortedResult(signal: AbortSignal): ExecutionResult {
  const reason = signal.reason as AbortReason;
  if (reason === "rollback") return { kind: "rolled-back" };
  if (reason === "shutdown" || reason === "lease-lost") return { kind: "released" };
  return { kind: "finished", status: "interrupted", error: null };
}

/** The `error` event payload: `{error, message}` as LangGraph Platform sends it. */
function describeFailure(error: unknown): { error: string; message: string } {
  if (error instanceof Error) return { error: error.name || "Error", message: error.message };
  return { error: "Error", message: String(error) };
}
