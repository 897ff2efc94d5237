import { isJsonObject, jsonObjectOrEmpty } from "../domain/json.js";
import { emptyThreadState, type StateCheckpoint, type ThreadState, type ThreadTask } from "../domain/thread-state.js";
import { toWireValue } from "../graphs/serialize-graph-value.js";

/** LangGraph's state snapshots, tasks and checkpoint configs (duck-typed) read into domain form. */

export function checkpointOf(config: unknown, requireId: boolean): StateCheckpoint | null {
  const configurable = (config as { configurable?: Record<string, unknown> } | null | undefined)?.configurable;
  if (!isJsonObject(configurable) || typeof configurable.thread_id !== "string") return null;
  const { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: id, checkpoint_map: map } = configurable;
  const checkpointId = typeof id === "string" && id.length > 0 ? id : null;
  if (requireId && checkpointId === null) return null;
  return {
    threadId,
    checkpointNs: typeof ns === "string" ? ns : "",
    checkpointId,
    checkpointMap: isJsonObject(map) ? jsonObjectOrEmpty(toWireValue(map)) : null,
  };
}

function errorMessage(error: unknown): string | null {
  if (error == null) return null;
  if (typeof error === "string") return error;
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" ? message : JSON.stringify(toWireValue(error));
}

function toThreadTask(raw: unknown): ThreadTask {
  const task = raw as { id: unknown; name: unknown; error?: unknown; interrupts?: unknown; state?: unknown } & {
    result?: unknown;
    path?: unknown;
  };
  // `state` is the subgraph's namespace config, or with `subgraphs` its whole snapshot.
  const isSnapshot = isJsonObject(task.state) && "values" in task.state && "next" in task.state;
  return {
    id: String(task.id),
    name: String(task.name),
    error: errorMessage(task.error),
    interrupts: Array.isArray(task.interrupts) ? task.interrupts.map((interrupt) => jsonObjectOrEmpty(toWireValue(interrupt))) : [],
    checkpoint: checkpointOf(isSnapshot ? (task.state as { config?: unknown }).config : task.state, false),
    state: isSnapshot ? toThreadState(task.state) : null,
    result: toWireValue(task.result),
    ...(Array.isArray(task.path) ? { path: toWireValue(task.path) as unknown[] } : {}),
  };
}

/** A LangGraph StateSnapshot (duck-typed) in domain form, every value in wire form. */
export function toThreadState(raw: unknown): ThreadState {
  const snapshot = raw as { values?: unknown; next?: unknown; tasks?: unknown; metadata?: unknown } & {
    config?: unknown;
    createdAt?: unknown;
    parentConfig?: unknown;
  };
  // No checkpoint was found: LangGraph answers with empty values and the config it was given.
  if (typeof snapshot.createdAt !== "string") return emptyThreadState();
  const tasks = Array.isArray(snapshot.tasks) ? snapshot.tasks.map(toThreadTask) : [];
  return {
    values: toWireValue(snapshot.values ?? {}),
    next: Array.isArray(snapshot.next) ? snapshot.next.map(String) : [],
    tasks,
    checkpoint: checkpointOf(snapshot.config, true),
    metadata: isJsonObject(snapshot.metadata) ? jsonObjectOrEmpty(toWireValue(snapshot.metadata)) : null,
    createdAt: new Date(snapshot.createdAt),
    parentCheckpoint: checkpointOf(snapshot.parentConfig, true),
    interrupts: tasks.flatMap((task) => task.interrupts),
  };
}
