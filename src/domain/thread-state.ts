import type { JsonObject } from "./json.js";
import type { ThreadStatus } from "./thread.js";

/** Where a state lives in the checkpointer. `checkpointId` is null for a task's (subgraph's) namespace. */
export interface StateCheckpoint {
  threadId: string;
  /** "" for the root graph; `node:task_id` (joined with `|`) for subgraphs. */
  checkpointNs: string;
  checkpointId: string | null;
  checkpointMap: JsonObject | null;
}

/** Picks a checkpoint of a thread: all fields optional, missing ones mean "latest" / root graph. */
export interface CheckpointSelector {
  checkpointId?: string;
  checkpointNs?: string;
  checkpointMap?: JsonObject;
}

/** An `interrupt()` raised by a task, in wire form (`{id, value}`). */
export type StateInterrupt = JsonObject;

/** A task of the step after the checkpoint; once attempted it may carry an error or interrupts. */
export interface ThreadTask {
  id: string;
  name: string;
  error: string | null;
  interrupts: StateInterrupt[];
  /** The task's subgraph namespace, when the task is a subgraph. */
  checkpoint: StateCheckpoint | null;
  /** The subgraph's own state, when asked for with `subgraphs`. */
  state: ThreadState | null;
  result: unknown;
  /** LangGraph's task path, e.g. ["__pregel_pull", "agent"] (absent from older LangGraph). */
  path?: unknown[];
}

/**
 * One checkpoint of a thread as LangGraph Platform shows it. Every value (values, metadata,
 * interrupts, results) is already plain JSON: LangChain messages are wire dicts.
 */
export interface ThreadState {
  values: unknown;
  next: string[];
  tasks: ThreadTask[];
  checkpoint: StateCheckpoint | null;
  metadata: JsonObject | null;
  createdAt: Date | null;
  parentCheckpoint: StateCheckpoint | null;
  /** Every task's pending interrupts, in task order. */
  interrupts: StateInterrupt[];
}

/** A command of a superstep update (same fields as a run's `command`). */
export interface StateCommand {
  update?: unknown;
  resume?: unknown;
  goto?: unknown;
}

/** One superstep of a thread created from supersteps: its updates are applied together. */
export interface ThreadSuperstep {
  updates: { values: unknown; command?: StateCommand; asNode: string }[];
}

/** What a thread without a graph or without a checkpoint reports (as LangGraph Platform does). */
export function emptyThreadState(): ThreadState {
  return {
    values: {},
    next: [],
    tasks: [],
    checkpoint: null,
    metadata: null,
    createdAt: null,
    parentCheckpoint: null,
    interrupts: [],
  };
}

/** threads.interrupts: task id → that task's interrupts, for tasks that have any. */
export function interruptsByTask(state: ThreadState): JsonObject {
  const byTask: JsonObject = {};
  for (const task of state.tasks) if (task.interrupts.length > 0) byTask[task.id] = task.interrupts;
  return byTask;
}

/**
 * The status a thread settles in once no run is active: `error` when the last run failed,
 * `interrupted` when the graph stopped before its end (pending interrupts or nodes left to run),
 * `idle` otherwise. `busy` is never decided here: the run engine sets it before a run starts.
 */
export function settledThreadStatus(state: ThreadState, outcome: { failed?: boolean } = {}): ThreadStatus {
  if (outcome.failed) return "error";
  if (state.interrupts.length > 0 || state.next.length > 0) return "interrupted";
  return "idle";
}
