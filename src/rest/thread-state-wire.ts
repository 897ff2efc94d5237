import type { z } from "zod";
import type { JsonObject } from "../domain/json.js";
import type {
  CheckpointSelector,
  StateCheckpoint,
  ThreadState,
  ThreadSuperstep,
  ThreadTask,
} from "../domain/thread-state.js";
import type { ThreadHistoryInput, UpdateThreadStateInput } from "../services/thread-state.service.js";
import type {
  CheckpointSchema,
  ThreadStateSearch,
  ThreadStateUpdate,
  ThreadSupersteps,
} from "./schemas/thread-state.js";

/**
 * Thread state on the wire, as the SDK's ThreadState / ThreadTask / Checkpoint types and
 * LangGraph Platform have it: snake_case, ISO timestamps, null (never absent) for missing parts.
 */

export interface CheckpointWire {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string | null;
  checkpoint_map: JsonObject | null;
}

export interface ThreadTaskWire {
  id: string;
  name: string;
  error: string | null;
  interrupts: JsonObject[];
  checkpoint: Partial<CheckpointWire> | null;
  state: Omit<ThreadStateWire, "interrupts"> | null;
  result: unknown;
  path?: unknown[];
}

export interface ThreadStateWire {
  values: unknown;
  next: string[];
  tasks: ThreadTaskWire[];
  checkpoint: CheckpointWire | null;
  metadata: JsonObject | null;
  created_at: string | null;
  parent_checkpoint: CheckpointWire | null;
  interrupts: JsonObject[];
}

export function checkpointToWire(checkpoint: StateCheckpoint): CheckpointWire;
export function checkpointToWire(checkpoint: StateCheckpoint | null): CheckpointWire | null;
export function checkpointToWire(checkpoint: StateCheckpoint | null): CheckpointWire | null {
  if (checkpoint === null) return null;
  return {
    thread_id: checkpoint.threadId,
    checkpoint_ns: checkpoint.checkpointNs,
    checkpoint_id: checkpoint.checkpointId,
    checkpoint_map: checkpoint.checkpointMap,
  };
}

/**
 * A task's checkpoint is the namespace of its subgraph; LangGraph Platform answers it with only
 * the keys LangGraph gives (thread_id, checkpoint_ns; an id once the subgraph has one), so
 * clients comparing it whole see no null id or map.
 */
function taskCheckpointToWire(checkpoint: StateCheckpoint | null): Partial<CheckpointWire> | null {
  if (checkpoint === null) return null;
  return {
    thread_id: checkpoint.threadId,
    checkpoint_ns: checkpoint.checkpointNs,
    ...(checkpoint.checkpointId !== null ? { checkpoint_id: checkpoint.checkpointId } : {}),
    ...(checkpoint.checkpointMap !== null ? { checkpoint_map: checkpoint.checkpointMap } : {}),
  };
}

function taskToWire(task: ThreadTask): ThreadTaskWire {
  return {
    id: task.id,
    name: task.name,
    error: task.error,
    interrupts: task.interrupts,
    // With the subgraph's state given, LangGraph Platform answers no separate checkpoint (the
    // state has its own), and the nested state without the top level's `interrupts` summary.
    checkpoint: task.state === null ? taskCheckpointToWire(task.checkpoint) : null,
    state: task.state === null ? null : nestedStateToWire(task.state),
    result: task.result,
    ...(task.path !== undefined ? { path: task.path } : {}),
  };
}

function nestedStateToWire(state: ThreadState): Omit<ThreadStateWire, "interrupts"> {
  const { interrupts: _summary, ...wire } = threadStateToWire(state);
  return wire;
}

export function threadStateToWire(state: ThreadState): ThreadStateWire {
  return {
    values: state.values,
    next: state.next,
    tasks: state.tasks.map(taskToWire),
    checkpoint: checkpointToWire(state.checkpoint),
    metadata: state.metadata,
    created_at: state.createdAt?.toISOString() ?? null,
    parent_checkpoint: checkpointToWire(state.parentCheckpoint),
    interrupts: state.interrupts,
  };
}

/**
 * A state answered with only the `select`ed fields (all when none are): `values.<key>` answers
 * `values` with that key alone, as LangGraph Platform does; a key the state lacks is left out.
 */
export function selectStateFields(wire: ThreadStateWire, select: readonly string[] | undefined): Partial<ThreadStateWire> {
  if (!select?.length) return wire;
  const selected: Partial<ThreadStateWire> = {};
  const entries = wire as unknown as Record<string, unknown>;
  for (const field of select) {
    if (!field.startsWith("values.")) {
      (selected as Record<string, unknown>)[field] = entries[field];
      continue;
    }
    if (select.includes("values")) continue;
    const key = field.slice("values.".length);
    const values = (selected.values ?? {}) as Record<string, unknown>;
    const state = wire.values as Record<string, unknown> | null;
    if (state !== null && typeof state === "object" && Object.hasOwn(state, key)) values[key] = state[key];
    selected.values = values;
  }
  return selected;
}

export function checkpointSelectorFromWire(body: z.infer<typeof CheckpointSchema> | undefined): CheckpointSelector {
  return {
    checkpointId: body?.checkpoint_id,
    checkpointNs: body?.checkpoint_ns,
    checkpointMap: body?.checkpoint_map,
  };
}

export function updateThreadStateFromWire(body: z.infer<typeof ThreadStateUpdate>): UpdateThreadStateInput {
  return {
    values: body.values,
    asNode: body.as_node,
    checkpointId: body.checkpoint_id,
    checkpoint: body.checkpoint ? checkpointSelectorFromWire(body.checkpoint) : undefined,
  };
}

export function threadHistoryFromWire(body: z.infer<typeof ThreadStateSearch>): ThreadHistoryInput {
  const before = typeof body.before === "string" ? body.before : body.before?.configurable.checkpoint_id;
  return {
    limit: body.limit,
    before,
    metadata: body.metadata,
    checkpoint: body.checkpoint ? checkpointSelectorFromWire(body.checkpoint) : undefined,
  };
}

export function superstepsFromWire(body: z.infer<typeof ThreadSupersteps> | undefined): ThreadSuperstep[] | undefined {
  return body?.map((step) => ({
    updates: step.updates.map((update) => ({
      values: update.values,
      command: update.command,
      asNode: update.as_node,
    })),
  }));
}
