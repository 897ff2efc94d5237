import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { EntityManager } from "typeorm";
import { listThreadRuns } from "../db/sql/list-thread-runs.js";
import { selectThread } from "../db/sql/select-threads.js";
import { recordThreadState } from "../db/sql/update-thread.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../domain/errors.js";
import { isUuid } from "../domain/ids.js";
import { isJsonObject, type JsonObject, jsonObjectOrEmpty } from "../domain/json.js";
import { mergeRunConfig, type Run } from "../domain/run.js";
import type { Thread, ThreadStatus } from "../domain/thread.js";
import {
  emptyThreadState,
  interruptsByTask,
  settledThreadStatus,
  type CheckpointSelector,
  type StateCheckpoint,
  type ThreadState,
  type ThreadSuperstep,
} from "../domain/thread-state.js";
import { toGraphCommand } from "../graphs/graph-library.js";
import type { CompiledGraphLike } from "../graphs/graph-registry.js";
import { stringifyWireValue, toWireValue } from "../graphs/serialize-graph-value.js";
import { scopeOf, UNRESTRICTED, type MetadataScope } from "./access-scope.js";
import { openRun, openThread, sealFields } from "./field-encryption.js";
import type { ServiceContext } from "./service-context.js";
import { checkpointOf, toThreadState } from "./thread-state-snapshot.js";

export interface UpdateThreadStateInput {
  /** An update as `asNode` would have returned it; null with asNode "__end__" clears pending tasks. */
  values: unknown;
  asNode?: string;
  /** Fork from this checkpoint instead of the latest (same as checkpoint.checkpointId). */
  checkpointId?: string;
  checkpoint?: CheckpointSelector;
}

export interface ThreadHistoryInput {
  /** Default 10. */
  limit?: number;
  /** Only checkpoints older than this checkpoint id. */
  before?: string;
  /** Only checkpoints whose metadata contains these keys and values. */
  metadata?: JsonObject;
  checkpoint?: CheckpointSelector;
}

/** Whether the run that just ended failed, and its error; absent for state edits outside runs. */
export interface RunFailureInfo {
  failed?: boolean;
  error?: unknown;
}

type GraphConfig = { configurable: Record<string, unknown>; metadata?: Record<string, unknown> };

/**
 * A caller's transaction that state reads and edits join: its manager for thread rows, and a
 * checkpointer writing on its connection (checkpointer.inTransaction), so that an edit commits or
 * rolls back with whatever else the caller writes (run-lifecycle/continue-thread.ts).
 */
export interface StateTransaction {
  manager: EntityManager;
  checkpointer: BaseCheckpointSaver;
}
type GraphUpdate = { values: unknown; asNode?: string };

/** The graph methods state needs; bulkUpdateState is missing from older LangGraph copies. */
interface StatefulGraph extends CompiledGraphLike {
  bulkUpdateState?(config: GraphConfig, supersteps: { updates: GraphUpdate[] }[]): Promise<unknown>;
}

/** The thread if it exists within `scope` (the caller's authorization; a hidden thread is "not found"). */
async function findThread(ctx: ServiceContext, threadId: string, scope: MetadataScope = UNRESTRICTED, tx?: StateTransaction): Promise<Thread> {
  const manager = tx?.manager ?? ctx.db.dataSource.manager;
  // In a transaction that edits the thread, its row lock: no run is queued on it meanwhile.
  const thread = isUuid(threadId) ? await selectThread(manager, threadId.toLowerCase(), scope, { lock: tx !== undefined }) : null;
  if (!thread) throw new NotFoundError(`Thread '${threadId}' not found`);
  // Metadata opened (graph_id and what else state reads consult may be encrypted); `values` is
  // left sealed: state is read from the checkpoint, and syncThread replaces the cached copy.
  return openThread(ctx, thread, { metadataOnly: true });
}

/** A thread the caller may `action` (threads:read for reads, threads:update for state edits). */
async function authorizedThread(ctx: ServiceContext, threadId: string, action: "read" | "update", value: Record<string, unknown> = {}) {
  const scope = await scopeOf(ctx, "threads", action, { thread_id: threadId, ...value });
  return findThread(ctx, threadId, scope);
}

/** The thread's graph: metadata.graph_id, set by thread create (graphId) or by its first run. */
function graphIdOf(thread: Thread): string | null {
  const graphId: unknown = thread.metadata.graph_id;
  return typeof graphId === "string" && graphId.length > 0 ? graphId : null;
}

/**
 * The config a factory graph of this thread is rebuilt with: the thread's config overlaid with
 * the config of its latest run (assistant config and run config together), as LangGraph Platform
 * folds each run's config into its thread's. Without it a factory whose nodes depend on the
 * config would be rebuilt without the node a state update names.
 */
async function factoryConfigOf(ctx: ServiceContext, thread: Thread, tx?: StateTransaction): Promise<JsonObject> {
  const [latestRun] = await listThreadRuns(tx?.manager ?? ctx.db.dataSource.manager, { threadId: thread.threadId, limit: 1, offset: 0 });
  if (latestRun === undefined) return thread.config;
  return mergeRunConfig(thread.config, (await openRun(ctx, latestRun)).kwargs.config);
}

async function resolveGraph(ctx: ServiceContext, thread: Thread, graphId: string, tx?: StateTransaction): Promise<StatefulGraph> {
  if (!ctx.graphs.has(graphId)) {
    throw new NotFoundError(`Graph '${graphId}' of thread '${thread.threadId}' is not deployed`);
  }
  // Factories get the thread's config, as they would for a run on this thread.
  const config = ctx.graphs.isFactory(graphId) ? await factoryConfigOf(ctx, thread, tx) : thread.config;
  const configurable = { ...(config.configurable ?? {}), thread_id: thread.threadId, graph_id: graphId };
  return ctx.graphs.resolve(graphId, {
    config: { ...config, configurable },
    checkpointer: tx?.checkpointer ?? ctx.db.checkpointer,
    store: ctx.db.store,
  });
}

async function requireGraph(ctx: ServiceContext, thread: Thread, purpose: string, tx?: StateTransaction) {
  const graphId = graphIdOf(thread);
  if (graphId === null) {
    throw new InvalidInputError(
      `Thread '${thread.threadId}' has no graph_id in its metadata, so there is no graph to ${purpose}: ` +
        "create the thread with a graph id (metadata.graph_id) or run an assistant on it first",
    );
  }
  return { graphId, graph: await resolveGraph(ctx, thread, graphId, tx) };
}

function stateConfig(threadId: string, selector: CheckpointSelector = {}): GraphConfig {
  const configurable: Record<string, unknown> = { thread_id: threadId, checkpoint_ns: selector.checkpointNs ?? "" };
  if (selector.checkpointId) configurable.checkpoint_id = selector.checkpointId;
  if (selector.checkpointMap) configurable.checkpoint_map = selector.checkpointMap;
  return { configurable };
}

/** Writes carry thread and graph in config.metadata, which the checkpointer stamps on the checkpoint. */
function writeConfig(thread: Thread, graphId: string, selector?: CheckpointSelector): GraphConfig {
  const config = stateConfig(thread.threadId, selector);
  return { ...config, metadata: { thread_id: thread.threadId, graph_id: graphId } };
}

type LangGraphErrorLike = { name?: unknown; message?: unknown; lc_error_code?: unknown };
const BAD_UPDATE_CODES = new Set(["MESSAGE_COERCION_FAILURE", "INVALID_GRAPH_NODE_RETURN_VALUE"]);

/**
 * LangGraph reports bad updates (unknown as_node, ambiguous update, values its reducers cannot
 * take) and unknown subgraph namespaces with its own errors; they are the caller's mistake.
 * Matched by name and lc_error_code because the graph's LangGraph copy may not be ours.
 */
async function callGraph<Result>(operation: () => Promise<Result>): Promise<Result> {
  try {
    return await operation();
  } catch (error) {
    const { name, message, lc_error_code: code } = (error ?? {}) as LangGraphErrorLike;
    const text = typeof message === "string" ? message : String(error);
    if (name === "InvalidUpdateError" || (typeof code === "string" && BAD_UPDATE_CODES.has(code))) {
      throw new InvalidInputError(`Invalid state update: ${text}`);
    }
    if (/^Subgraph .* not found/.test(text)) throw new NotFoundError(text);
    throw error;
  }
}

async function readState(
  ctx: ServiceContext,
  thread: Thread,
  selector: CheckpointSelector,
  options: { subgraphs?: boolean },
  tx?: StateTransaction,
): Promise<ThreadState> {
  const graphId = graphIdOf(thread);
  if (graphId === null) return emptyThreadState();
  const graph = await resolveGraph(ctx, thread, graphId, tx);
  const config = stateConfig(thread.threadId, selector);
  return toThreadState(await callGraph(() => graph.getState(config, { subgraphs: options.subgraphs ?? false })));
}

/** A failed run's error as threads.error stores it: strings stay, errors become {error, message}. */
function threadErrorOf(error: unknown): string | JsonObject | null {
  if (error == null) return null;
  if (typeof error === "string") return error;
  const wire = toWireValue(error);
  return isJsonObject(wire) ? wire : String(wire);
}

async function getState(ctx: ServiceContext, threadId: string, options: { subgraphs?: boolean } = {}) {
  return readState(ctx, await authorizedThread(ctx, threadId, "read"), {}, options);
}

/** The state at one checkpoint; without checkpointId, the latest in that namespace. */
async function getStateAt(
  ctx: ServiceContext,
  threadId: string,
  checkpoint: CheckpointSelector,
  options: { subgraphs?: boolean } = {},
): Promise<ThreadState> {
  const state = await readState(ctx, await authorizedThread(ctx, threadId, "read"), checkpoint, options);
  if (checkpoint.checkpointId && state.checkpoint === null) {
    throw new NotFoundError(`Checkpoint '${checkpoint.checkpointId}' not found in thread '${threadId}'`);
  }
  return state;
}

/**
 * Refreshes the thread row from its latest state: values (wire form), interrupts by task, status
 * and error. Called after state edits and by the run engine after each run, only when no run is
 * active on the thread: it always writes a settled status, never `busy`.
 */
/** What a thread stores of its latest state: values, open interrupts, settled status, error. */
export interface SettledThread {
  /** The state's values as the graph left them (any JSON value for a functional-API graph); null before any checkpoint. */
  values: unknown;
  interrupts: JsonObject;
  status: ThreadStatus;
  error: string | JsonObject | null;
}

function describeSettledThread(state: ThreadState, outcome: RunFailureInfo): SettledThread {
  return {
    values: state.checkpoint === null ? null : state.values,
    interrupts: interruptsByTask(state),
    status: settledThreadStatus(state, outcome),
    error: outcome.failed ? (threadErrorOf(outcome.error) ?? "Run failed") : null,
  };
}

async function syncThread(ctx: ServiceContext, threadId: string, outcome: RunFailureInfo = {}, tx?: StateTransaction): Promise<Thread> {
  const thread = await findThread(ctx, threadId, UNRESTRICTED, tx);
  const settled = describeSettledThread(await readState(ctx, thread, {}, {}, tx), outcome);
  const now = ctx.now();
  const changes = { ...settled, updatedAt: now, stateUpdatedAt: now };
  const sealed = await sealFields(ctx, "thread", { values: settled.values }, thread.encryptionContext);
  const stored = { ...changes, values: sealed.fields.values ?? null, encryptionContext: sealed.encryptionContext };
  await recordThreadState(tx?.manager ?? ctx.db.dataSource.manager, thread.threadId, stored, now);
  return { ...thread, ...changes, encryptionContext: sealed.encryptionContext };
}

/**
 * The thread as a run left it, read with the run's own graph (no thread row read): the worker
 * records it together with the run's outcome (settle-run.ts).
 */
async function readThreadAfterRun(ctx: ServiceContext, run: Run, outcome: RunFailureInfo): Promise<SettledThread> {
  const { graphId, config } = run.kwargs;
  const configurable = { ...jsonObjectOrEmpty(config.configurable), thread_id: run.threadId, graph_id: graphId };
  const graph: StatefulGraph = await ctx.graphs.resolve(graphId, {
    config: { ...config, configurable },
    checkpointer: ctx.db.checkpointer,
    store: ctx.db.store,
  });
  // Answered from the checkpoints the run just committed, without a database read (checkpointer.ts).
  const afterRun = ctx.db.checkpointer.readAfterRunConfig(run.threadId, run.runId);
  const state = toThreadState(await callGraph(() => graph.getState(afterRun, { subgraphs: false })));
  return describeSettledThread(state, outcome);
}

async function updateState(
  ctx: ServiceContext,
  threadId: string,
  input: UpdateThreadStateInput,
): Promise<{ checkpoint: StateCheckpoint & { checkpointId: string } }> {
  const edit = await editState(ctx, threadId, input);
  publishStateEdit(ctx, edit.thread);
  return { checkpoint: edit.checkpoint };
}

/**
 * A state edit (updateState's), written in the caller's transaction when given one (which then
 * holds the thread's row lock until it commits); tell it with publishStateEdit after the commit.
 * Refused on a busy thread: the run engine assumes a thread's running run is its only writer.
 */
async function editState(
  ctx: ServiceContext,
  threadId: string,
  input: UpdateThreadStateInput,
  tx?: StateTransaction,
): Promise<{ checkpoint: StateCheckpoint & { checkpointId: string }; thread: Thread }> {
  const scope = await scopeOf(ctx, "threads", "update", { thread_id: threadId, values: input.values, as_node: input.asNode });
  const thread = await findThread(ctx, threadId, scope, tx);
  if (thread.status === "busy") {
    throw new ConflictError(`Thread '${thread.threadId}' is busy with a run; update its state once the run ends`);
  }
  const { graphId, graph } = await requireGraph(ctx, thread, "update its state", tx);
  const selector = { ...input.checkpoint, ...(input.checkpointId ? { checkpointId: input.checkpointId } : {}) };
  const config = writeConfig(thread, graphId, selector);
  const next = await callGraph(() => graph.updateState(config, input.values ?? null, input.asNode));
  const checkpoint = checkpointOf(next, true);
  if (checkpoint?.checkpointId == null) {
    throw new Error(`updateState returned no checkpoint: ${JSON.stringify(toWireValue(next))}`);
  }
  const synced = await syncThread(ctx, thread.threadId, {}, tx);
  return { checkpoint: { ...checkpoint, checkpointId: checkpoint.checkpointId }, thread: synced };
}

/** After the edit committed: the thread's stream (state_update mode) hears of it; there is no run, so no stored event. */
function publishStateEdit(ctx: ServiceContext, synced: Thread): void {
  const event = { runId: "", threadId: synced.threadId, seq: 0, event: "values", data: stringifyWireValue(synced.values) };
  ctx.streaming.bus.publish({ kind: "event", event });
}

/** Merges metadata into the latest checkpoint's metadata (PATCH /threads/{id}/state). */
async function patchStateMetadata(
  ctx: ServiceContext,
  threadId: string,
  input: { metadata: JsonObject },
): Promise<void> {
  const thread = await authorizedThread(ctx, threadId, "update", { metadata: input.metadata });
  const saver = ctx.db.checkpointer;
  const latest = await saver.getTuple(stateConfig(thread.threadId));
  if (latest === undefined) {
    throw new NotFoundError(`Thread '${thread.threadId}' has no checkpoint yet: no state metadata to patch`);
  }
  // Re-putting a stored checkpoint upserts its row (checkpoint and metadata only) and, with no
  // new channel versions, leaves its blobs alone.
  const metadata = { ...latest.metadata, ...input.metadata } as NonNullable<typeof latest.metadata>;
  await saver.put(latest.parentConfig ?? stateConfig(thread.threadId), latest.checkpoint, metadata, {});
}

/** Checkpoints newest first. */
async function getHistory(
  ctx: ServiceContext,
  threadId: string,
  input: ThreadHistoryInput = {},
): Promise<ThreadState[]> {
  const limit = input.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new InvalidInputError(`limit must be an integer from 1 to 1000, got ${limit}`);
  }
  const thread = await authorizedThread(ctx, threadId, "read");
  const graphId = graphIdOf(thread);
  if (graphId === null) return [];
  const graph = await resolveGraph(ctx, thread, graphId);
  if (typeof graph.getStateHistory !== "function") throw new Error(`Graph '${graphId}' has no getStateHistory()`);
  const options = {
    limit,
    before: input.before ? { configurable: { checkpoint_id: input.before } } : undefined,
    filter: input.metadata,
  };
  return callGraph(async () => {
    const states: ThreadState[] = [];
    for await (const snapshot of graph.getStateHistory!(stateConfig(thread.threadId, input.checkpoint), options)) {
      states.push(toThreadState(snapshot));
    }
    return states;
  });
}

/**
 * Seeds a thread (thread create with supersteps): each superstep's updates are applied together,
 * supersteps in order, through the graph's bulkUpdateState when it has one.
 */
async function applySupersteps(ctx: ServiceContext, threadId: string, supersteps: ThreadSuperstep[]): Promise<Thread> {
  const thread = await findThread(ctx, threadId);
  const { graphId, graph } = await requireGraph(ctx, thread, "apply supersteps with");
  const steps = supersteps.map((step) => ({
    updates: step.updates.map((update) => ({
      values: update.command ? toGraphCommand(ctx.graphs.libraryOf(graphId), update.command) : (update.values ?? null),
      asNode: update.asNode,
    })),
  }));
  const config = writeConfig(thread, graphId);
  await callGraph(async () => {
    if (typeof graph.bulkUpdateState === "function") return graph.bulkUpdateState(config, steps);
    // Without bulk updates, one checkpoint per update: same final values, more history.
    for (const update of steps.flatMap((step) => step.updates)) {
      await graph.updateState(config, update.values, update.asNode);
    }
  });
  return syncThread(ctx, thread.threadId);
}

/** Thread state: reading checkpoints, editing them, and keeping the thread row in step. */
export const threadStateService = {
  readThreadAfterRun,
  getState,
  getStateAt,
  updateState,
  editState,
  publishStateEdit,
  patchStateMetadata,
  getHistory,
  syncThread,
  applySupersteps,
};
