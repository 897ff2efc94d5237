import { diffJson, isPlainObject, type DiffEntry } from "./json-diff.js";

/**
 * A thread's checkpoints as a timeline: each with its step, the node that wrote it and what it
 * changed against its parent. Checkpoints come newest first, a page at a time, so a parent may
 * not be loaded yet (its diff waits for the older page). Forks (an edit or a run from an older
 * checkpoint) give one parent several children: each such child starts a branch.
 */

export interface CheckpointLike {
  checkpointId?: string | null;
  parentCheckpointId?: string | null;
  createdAt?: string | null;
  next: string[];
  values: unknown;
  metadata?: Record<string, unknown> | null;
}

export interface TimelineRow<C extends CheckpointLike> {
  checkpoint: C;
  id: string;
  step: number | null;
  source: string | null;
  /** The node(s) whose writes made this checkpoint; "input" / "update" sources name themselves. */
  writers: string[];
  /** null while the parent is not loaded; [] for the first checkpoint or no change. */
  changes: DiffEntry[] | null;
  /** This checkpoint forks off a parent that has other children. */
  startsBranch: boolean;
  /** No loaded checkpoint continues from this one: the tip of a branch. */
  isTip: boolean;
}

function writersOf(checkpoint: CheckpointLike, parent: CheckpointLike | undefined): string[] {
  const writes = checkpoint.metadata?.writes;
  if (isPlainObject(writes)) return Object.keys(writes);
  const source = checkpoint.metadata?.source;
  // A step's checkpoint was written by the nodes its parent had next (unknown until the parent is loaded).
  if (source === "loop") return parent ? parent.next : [];
  return typeof source === "string" ? [source] : [];
}

export function timelineRows<C extends CheckpointLike>(checkpoints: readonly C[]): Array<TimelineRow<C>> {
  const byId = new Map<string, C>();
  const children = new Map<string, number>();
  for (const checkpoint of checkpoints) {
    if (checkpoint.checkpointId) byId.set(checkpoint.checkpointId, checkpoint);
    const parent = checkpoint.parentCheckpointId;
    if (parent) children.set(parent, (children.get(parent) ?? 0) + 1);
  }
  return checkpoints.map((checkpoint) => {
    const parentId = checkpoint.parentCheckpointId ?? null;
    const parent = parentId ? byId.get(parentId) : undefined;
    const step = checkpoint.metadata?.step;
    return {
      checkpoint,
      id: checkpoint.checkpointId ?? "",
      step: typeof step === "number" ? step : null,
      source: typeof checkpoint.metadata?.source === "string" ? checkpoint.metadata.source : null,
      writers: writersOf(checkpoint, parent),
      changes: parentId === null ? diffJson({}, checkpoint.values) : parent ? diffJson(parent.values, checkpoint.values) : null,
      startsBranch: parentId !== null && (children.get(parentId) ?? 0) > 1,
      isTip: !children.has(checkpoint.checkpointId ?? ""),
    };
  });
}

/** How many branches the loaded history has: its tips. */
export function branchCount(rows: ReadonlyArray<TimelineRow<CheckpointLike>>): number {
  return rows.filter((row) => row.isTip).length;
}

/** The top-level keys whose values differ: an edit sends only those, so reducers see only the change. */
export function changedKeys(before: unknown, after: Record<string, unknown>): Record<string, unknown> {
  const original = isPlainObject(before) ? before : {};
  return Object.fromEntries(Object.entries(after).filter(([key, value]) => diffJson(original[key], value).length > 0));
}
