import { isJsonObject } from "../../domain/json.js";

type Loose = Record<string, unknown>;

/** A checkpoint as the REST API names one (like a thread state's `checkpoint`). */
interface WireCheckpoint {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string | null;
  checkpoint_map: Loose | null;
}

function checkpointOf(config: unknown): WireCheckpoint | null {
  if (!isJsonObject(config) || !isJsonObject(config.configurable)) return null;
  const { thread_id, checkpoint_ns, checkpoint_id, checkpoint_map } = config.configurable as Loose;
  if (typeof thread_id !== "string" || thread_id === "") return null;
  return {
    thread_id,
    checkpoint_ns: typeof checkpoint_ns === "string" ? checkpoint_ns : "",
    checkpoint_id: typeof checkpoint_id === "string" ? checkpoint_id : null,
    checkpoint_map: isJsonObject(checkpoint_map) ? checkpoint_map : null,
  };
}

/**
 * A config as clients may see it: without the callbacks and abort signal of the execution (which
 * include Hangar's own trace recorder) and without LangGraph's internal `__pregel_*` keys.
 */
function publicConfig(config: unknown): unknown {
  if (!isJsonObject(config)) return config;
  const { callbacks: _callbacks, signal: _signal, configurable, ...rest } = config as Loose;
  if (!isJsonObject(configurable)) return rest;
  const visible = Object.fromEntries(Object.entries(configurable).filter(([key]) => !key.startsWith("__")));
  return { ...rest, configurable: visible };
}

/** A task of a debug checkpoint: a subgraph task's state config becomes its `checkpoint`. */
function wireTask(task: unknown): unknown {
  if (!isJsonObject(task)) return task;
  const checkpoint = checkpointOf(task.state);
  if (checkpoint === null) return task;
  const { state: _state, ...rest } = task as Loose;
  return { ...rest, checkpoint };
}

/**
 * LangGraph JS's checkpoint payload (debug `checkpoint` events, `checkpoints` mode) in LangGraph
 * Platform's wire shape: `checkpoint` / `parent_checkpoint` as thread states name them (so a
 * client can match them to history), `parent_config` in snake_case, and configs stripped of
 * execution internals.
 */
export function toWireCheckpointPayload(payload: unknown): unknown {
  if (!isJsonObject(payload)) return payload;
  const { config, parentConfig, tasks, ...rest } = payload as Loose;
  return {
    ...rest,
    config: publicConfig(config),
    parent_config: publicConfig(parentConfig),
    checkpoint: checkpointOf(config),
    parent_checkpoint: checkpointOf(parentConfig),
    ...(Array.isArray(tasks) ? { tasks: tasks.map(wireTask) } : {}),
  };
}

/** A `debug` event's data: its checkpoint payloads reshaped, other kinds untouched. */
export function toWireDebugEvent(data: unknown): unknown {
  if (!isJsonObject(data) || data.type !== "checkpoint") return data;
  return { ...data, payload: toWireCheckpointPayload(data.payload) };
}
