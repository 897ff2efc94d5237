import { NotFoundError } from "../domain/errors.js";
import { runRequestOf } from "../domain/run-request.js";
import type { ThreadState } from "../domain/thread-state.js";
import { createRun } from "../services/run-lifecycle/create-run.js";
import { runsService } from "../services/runs.service.js";
import type { ServiceContext } from "../services/service-context.js";
import { threadStateService } from "../services/thread-state.service.js";
import { isRecord } from "./protocol-events.js";
import { PROTOCOL_STREAM_MODES, ProtocolError } from "./protocol-wire.js";

/**
 * The protocol's state commands (state.get, state.listCheckpoints, state.fork) on the thread
 * state service: a protocol namespace is LangGraph's checkpoint namespace (`planner:<task>` …
 * joined with `|`), so a subgraph's state is read where LangGraph stored it.
 */

export interface StateCommandContext {
  ctx: ServiceContext;
  threadId: string;
}

const MAX_CHECKPOINTS = 1000;

export async function getState({ ctx, threadId }: StateCommandContext, params: Record<string, unknown>) {
  const checkpointNs = checkpointNsOf(params.namespace);
  const keys = params.keys;
  if (keys !== undefined && !(Array.isArray(keys) && keys.every((key) => typeof key === "string"))) {
    throw new ProtocolError("invalid_argument", "keys must be a list of strings");
  }
  const state = checkpointNs === "" ? await threadStateService.getState(ctx, threadId) : await subgraphState(ctx, threadId, checkpointNs);
  const values = isRecord(state.values) ? state.values : {};
  const picked = keys === undefined ? values : Object.fromEntries(Object.entries(values).filter(([key]) => (keys as string[]).includes(key)));
  const checkpoint = state.checkpoint?.checkpointId ? { id: state.checkpoint.checkpointId, ns: state.checkpoint.checkpointNs } : undefined;
  return { values: picked, ...(checkpoint ? { checkpoint } : {}) };
}

/** The thread's checkpoints in a namespace, newest first; `before` pages on by checkpoint id. */
export async function listCheckpoints({ ctx, threadId }: StateCommandContext, params: Record<string, unknown>) {
  const checkpointNs = checkpointNsOf(params.namespace);
  const { limit = 10, before } = params;
  if (!(Number.isSafeInteger(limit) && (limit as number) >= 1 && (limit as number) <= MAX_CHECKPOINTS)) {
    throw new ProtocolError("invalid_argument", `limit must be an integer from 1 to ${MAX_CHECKPOINTS}`);
  }
  if (before !== undefined && (typeof before !== "string" || before === "")) throw new ProtocolError("invalid_argument", "before must be a checkpoint id");
  if (typeof before === "string") await requireCheckpoint(ctx, threadId, before, checkpointNs);
  const history = await threadStateService.getHistory(ctx, threadId, {
    limit: limit as number,
    ...(before ? { before } : {}),
    ...(checkpointNs ? { checkpoint: { checkpointNs } } : {}),
  });
  return { checkpoints: history.flatMap(checkpointSummaryOf) };
}

/**
 * A new branch from a past checkpoint: a run on the thread that starts there (LangGraph writes
 * its checkpoints as children of that one), with the given input or none (a replay), by the
 * thread's latest run's assistant. It queues behind an active run like run.start.
 */
export async function forkState({ ctx, threadId }: StateCommandContext, params: Record<string, unknown>) {
  const { checkpoint_id: checkpointId, config } = params;
  if (typeof checkpointId !== "string" || checkpointId === "") throw new ProtocolError("invalid_argument", "checkpoint_id must be a non-empty string");
  if (config !== undefined && config !== null && !isRecord(config)) throw new ProtocolError("invalid_argument", "config must be an object");
  await requireCheckpoint(ctx, threadId, checkpointId, "");
  const [latest] = await runsService.list(ctx, { threadId, limit: 1, offset: 0 });
  if (!latest) throw new ProtocolError("no_such_run", `thread '${threadId}' has no run to fork`);
  const run = await createRun(
    ctx,
    runRequestOf({
      threadId,
      assistantId: latest.assistantId,
      input: params.input ?? null,
      config: isRecord(config) ? config : undefined,
      checkpointId,
      streamModes: [...PROTOCOL_STREAM_MODES],
      streamSubgraphs: true,
      multitaskStrategy: "enqueue",
    }),
  );
  return { run_id: run.runId, thread_id: threadId };
}

/** A protocol namespace as a checkpoint namespace; [] (or none) is the root's "". */
function checkpointNsOf(namespace: unknown): string {
  if (namespace === undefined || namespace === null) return "";
  if (!Array.isArray(namespace) || !namespace.every((segment) => typeof segment === "string" && segment !== "" && !segment.includes("|"))) {
    throw new ProtocolError("invalid_argument", "namespace must be a list of non-empty strings");
  }
  return namespace.join("|");
}

/** A subgraph's latest state; a namespace no checkpoint of the thread has is no_such_namespace. */
async function subgraphState(ctx: ServiceContext, threadId: string, checkpointNs: string): Promise<ThreadState> {
  // Namespace segments carry their task id (`planner:<task>`): LangGraph stores each call's own.
  if (!checkpointNs.split("|").every((segment) => segment.includes(":"))) {
    throw new ProtocolError("no_such_namespace", `namespace segments name a subgraph call as the events do (name:task_id), got '${checkpointNs}'`);
  }
  const state = await readNamespace(ctx, threadId, checkpointNs);
  if (state.checkpoint?.checkpointId == null) throw new ProtocolError("no_such_namespace", `thread '${threadId}' has no state in namespace '${checkpointNs}'`);
  return state;
}

async function readNamespace(ctx: ServiceContext, threadId: string, checkpointNs: string): Promise<ThreadState> {
  try {
    return await threadStateService.getStateAt(ctx, threadId, { checkpointNs });
  } catch (error) {
    // LangGraph refuses a namespace naming no subgraph of the graph.
    if (error instanceof Error && !(error instanceof NotFoundError) && /subgraph/i.test(error.message)) {
      throw new ProtocolError("no_such_namespace", `thread '${threadId}' has no subgraph namespace '${checkpointNs}'`);
    }
    throw error;
  }
}

async function requireCheckpoint(ctx: ServiceContext, threadId: string, checkpointId: string, checkpointNs: string): Promise<void> {
  try {
    await threadStateService.getStateAt(ctx, threadId, { checkpointId, ...(checkpointNs ? { checkpointNs } : {}) });
  } catch (error) {
    if (error instanceof NotFoundError && error.message.includes(checkpointId)) {
      throw new ProtocolError("no_such_checkpoint", `thread '${threadId}' has no checkpoint '${checkpointId}'`);
    }
    throw error;
  }
}

function checkpointSummaryOf(state: ThreadState) {
  const id = state.checkpoint?.checkpointId;
  if (!id) return [];
  const metadata = state.metadata ?? {};
  const writes = isRecord(metadata.writes) ? Object.keys(metadata.writes) : [];
  return [
    {
      id,
      timestamp: (state.createdAt ?? new Date(0)).toISOString(),
      step: typeof metadata.step === "number" ? metadata.step : 0,
      ...(writes.length === 1 ? { node_name: writes[0] } : {}),
      ...(state.parentCheckpoint?.checkpointId ? { parent_id: state.parentCheckpoint.checkpointId } : {}),
      metadata,
    },
  ];
}
