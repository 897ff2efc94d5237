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
  /**
   * The branch this checkpoint is on, 0-based: branches are numbered by their tips, newest tip
   * first, and each runs from its tip back to where it forked (or to the oldest loaded checkpoint).
   */
  branch: number;
  /** Branches whose line passes this row (drawn as lanes): those between their tip and fork point. */
  lanes: number[];
  /** The checkpoint this one forked from, when it starts a branch other than its parent's. */
  forkedFrom: string | null;
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
  const rows = checkpoints.map((checkpoint) => {
    const parentId = checkpoint.parentCheckpointId ?? null;
    const parent = parentId ? byId.get(parentId) : undefined;
    const step = checkpoint.metadata?.step;
    const startsBranch = parentId !== null && (children.get(parentId) ?? 0) > 1;
    return {
      checkpoint,
      id: checkpoint.checkpointId ?? "",
      step: typeof step === "number" ? step : null,
      source: typeof checkpoint.metadata?.source === "string" ? checkpoint.metadata.source : null,
      writers: writersOf(checkpoint, parent),
      changes: parentId === null ? diffJson({}, checkpoint.values) : parent ? diffJson(parent.values, checkpoint.values) : null,
      startsBranch,
      isTip: !children.has(checkpoint.checkpointId ?? ""),
      branch: 0,
      lanes: [] as number[],
      forkedFrom: null as string | null,
    };
  });
  assignBranches(rows);
  return rows;
}

/**
 * Walks from each tip (newest first) back through parents until a checkpoint already on a branch:
 * that checkpoint is the fork point. Each branch's lane runs over the rows from its tip to its
 * fork point (list order is newest first, so that is a contiguous range of rows).
 */
function assignBranches(rows: Array<TimelineRow<CheckpointLike>>): void {
  const indexById = new Map(rows.map((row, index) => [row.id, index]));
  const assigned = new Set<number>();
  const spans: Array<{ branch: number; from: number; to: number }> = [];
  let branch = 0;
  rows.forEach((row, tipIndex) => {
    if (!row.isTip || assigned.has(tipIndex)) return;
    let index: number | undefined = tipIndex;
    let last = tipIndex;
    while (index !== undefined && !assigned.has(index)) {
      assigned.add(index);
      rows[index]!.branch = branch;
      last = index;
      const parentId: string | null | undefined = rows[index]!.checkpoint.parentCheckpointId;
      index = parentId ? indexById.get(parentId) : undefined;
    }
    // Down to the fork point when there is one (index), else to the branch's oldest checkpoint.
    spans.push({ branch, from: tipIndex, to: index ?? last });
    branch += 1;
  });
  rows.forEach((row, index) => {
    row.lanes = spans.filter((span) => span.from <= index && index <= span.to).map((span) => span.branch);
    const parentIndex = row.checkpoint.parentCheckpointId ? indexById.get(row.checkpoint.parentCheckpointId) : undefined;
    if (parentIndex !== undefined && rows[parentIndex]!.branch !== row.branch) row.forkedFrom = rows[parentIndex]!.id;
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
