import { isPlainObject } from "./json-diff.js";

/**
 * A thread's steps as a debugger shows them, read from its checkpoint history: each checkpoint's
 * tasks are what ran in the step after it (their `result` is the update each node wrote), the
 * checkpoint's values are that step's input, and the next checkpoint on the branch closes the
 * step. Nodes of one step run in parallel, so the step's duration (between the two checkpoints'
 * timestamps) is each of its nodes' duration too: LangGraph records no per-task times.
 */

export interface StepTaskLike {
  id: string;
  name: string;
  result?: unknown;
  error?: string | null;
  interrupts?: unknown;
  checkpointNs?: string | null;
}

export interface StepStateLike {
  checkpointId?: string | null;
  parentCheckpointId?: string | null;
  createdAt?: string | null;
  values: unknown;
  metadata?: Record<string, unknown> | null;
  tasks: readonly StepTaskLike[];
}

/** One node's run in one step. */
export interface NodeRun {
  taskId: string;
  node: string;
  /** LangGraph's step number (checkpoint metadata.step of the step's result). */
  step: number | null;
  /** The state before the step (what the node was given). */
  input: unknown;
  /** The update the node wrote; null while it runs or when it stopped in interrupt(). */
  output: unknown;
  durationMs: number | null;
  /** Still running or waiting (the step's closing checkpoint is not written yet). */
  isPending: boolean;
  error: string | null;
  hasInterrupts: boolean;
  /** Set when the node is a subgraph: the namespace of its own checkpoints. */
  checkpointNs: string | null;
}

export interface RunStep {
  /** The checkpoint the step started from. */
  checkpointId: string;
  step: number | null;
  durationMs: number | null;
  nodes: NodeRun[];
}

// The input step only copies the run's input into the channels; it is not a node of the graph.
const INPUT_TASK = "__start__";

/**
 * The steps of the loaded history's newest branch, oldest first. History comes newest first a
 * page at a time: the branch is followed from the newest checkpoint back through parents as far
 * as they are loaded. The newest checkpoint's tasks, when it has some, form a step still running
 * (or stopped in an interrupt or at a breakpoint).
 */
export function runSteps(states: readonly StepStateLike[]): RunStep[] {
  const byId = new Map(states.flatMap((state) => (state.checkpointId ? [[state.checkpointId, state] as const] : [])));
  const branch: StepStateLike[] = [];
  // Bounded by the loaded count: a cycle in bad data must not hang the page.
  for (let state: StepStateLike | undefined = states[0]; state && branch.length < states.length; ) {
    branch.push(state);
    state = state.parentCheckpointId ? byId.get(state.parentCheckpointId) : undefined;
  }
  branch.reverse();
  const steps: RunStep[] = [];
  branch.forEach((before, index) => {
    const after = branch[index + 1] ?? null;
    const tasks = before.tasks.filter((task) => task.name !== INPUT_TASK);
    // Edits (source "update") and forks write checkpoints no node ran for.
    if (tasks.length === 0 || (after && after.metadata?.source !== "loop")) return;
    const durationMs = after ? millisBetween(before.createdAt, after.createdAt) : null;
    const step = stepNumber(after) ?? (stepNumber(before) === null ? null : stepNumber(before)! + 1);
    const writes = isPlainObject(after?.metadata?.writes) ? after.metadata.writes : {};
    steps.push({
      checkpointId: before.checkpointId ?? "",
      step,
      durationMs,
      nodes: tasks.map((task) => ({
        taskId: task.id,
        node: task.name,
        step,
        input: before.values,
        output: task.result ?? writes[task.name] ?? null,
        durationMs,
        isPending: after === null,
        error: task.error ?? null,
        hasInterrupts: Array.isArray(task.interrupts) && task.interrupts.length > 0,
        checkpointNs: task.checkpointNs ?? null,
      })),
    });
  });
  return steps;
}

/** Every run of one drawn node: `research:search` (inside an expanded subgraph) is found in its parent's runs. */
export function runsOfNode(steps: readonly RunStep[], nodeId: string): NodeRun[] {
  const top = nodeId.split(":")[0];
  return steps.flatMap((step) => step.nodes.filter((run) => run.node === nodeId || run.node === top));
}

function stepNumber(state: StepStateLike | null): number | null {
  const step = state?.metadata?.step;
  return typeof step === "number" ? step : null;
}

function millisBetween(from: string | null | undefined, to: string | null | undefined): number | null {
  if (!from || !to) return null;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}
