import { isPlainObject } from "./json-diff.js";

/**
 * Branches of a chat, read from the thread's checkpoint tree. Editing an earlier message re-runs
 * the graph from the checkpoint before it with the new text (a run from an older checkpoint
 * forks the thread: the new input checkpoint's parent is that older one). A message has siblings
 * when the checkpoint before it has several children: each child leads to one version of the
 * message and to the conversation that followed it (the branch's tip, its newest checkpoint).
 */

export interface BranchStateLike {
  checkpointId?: string | null;
  parentCheckpointId?: string | null;
  createdAt?: string | null;
  values: unknown;
}

/** The versions of one message: this branch is `index` of `tips.length`. */
export interface MessageSiblings {
  index: number;
  /** Each version's branch, by its tip (the checkpoint whose messages to show). */
  tips: string[];
}

export interface ChatBranchView<S extends BranchStateLike> {
  /** The shown branch's tip (the newest loaded checkpoint when none is named); null when not loaded. */
  tip: S | null;
  /** By message position: the checkpoint to re-run from when that message is edited. */
  editFrom: Map<number, S>;
  /** By message position: the message's versions, for those that have more than one. */
  siblings: Map<number, MessageSiblings>;
}

export function chatBranchView<S extends BranchStateLike>(states: readonly S[], tipId: string | null): ChatBranchView<S> {
  const byId = new Map<string, S>();
  const children = new Map<string, S[]>();
  for (const state of states) {
    if (state.checkpointId) byId.set(state.checkpointId, state);
  }
  for (const state of states) {
    const parent = state.parentCheckpointId;
    if (parent && byId.has(parent)) children.set(parent, [...(children.get(parent) ?? []), state]);
  }
  // Oldest child first: versions are numbered in the order they were made.
  for (const list of children.values()) list.sort((a, b) => order(a).localeCompare(order(b)));

  // A tip not loaded yet (the history is read again after a run) has no known branches.
  const tip = tipId ? (byId.get(tipId) ?? null) : (states[0] ?? null);
  const path: S[] = [];
  for (let state: S | undefined = tip ?? undefined; state && path.length <= states.length; ) {
    path.push(state);
    state = state.parentCheckpointId ? byId.get(state.parentCheckpointId) : undefined;
  }
  path.reverse();

  const editFrom = new Map<number, S>();
  const siblings = new Map<number, MessageSiblings>();
  const total = messageCount(tip?.values);
  for (let position = 0; position < total; position++) {
    const first = path.findIndex((state) => messageCount(state.values) > position);
    if (first <= 0) continue; // the checkpoint before the message is not loaded
    // Back over the checkpoints that hold exactly the messages before this one: the newest of
    // them with several children is where earlier edits of this message forked.
    let fork: S | null = null;
    for (let index = first - 1; index >= 0 && messageCount(path[index]!.values) === position; index--) {
      if ((children.get(path[index]!.checkpointId ?? "")?.length ?? 0) > 1) {
        fork = path[index]!;
        break;
      }
    }
    editFrom.set(position, fork ?? path[first - 1]!);
    if (!fork) continue;
    const versions = children.get(fork.checkpointId ?? "")!;
    const onPath = path[path.indexOf(fork) + 1]!;
    siblings.set(position, { index: versions.indexOf(onPath), tips: versions.map((version) => newestTip(version, children).checkpointId ?? "") });
  }
  return { tip, editFrom, siblings };
}

/** Down a branch to its newest checkpoint, taking the newest child at each fork. */
function newestTip<S extends BranchStateLike>(state: S, children: Map<string, S[]>): S {
  let current = state;
  for (let next = children.get(current.checkpointId ?? ""); next?.length; next = children.get(current.checkpointId ?? "")) {
    current = next.at(-1)!;
  }
  return current;
}

function order(state: BranchStateLike): string {
  return `${state.createdAt ?? ""}|${state.checkpointId ?? ""}`;
}

function messageCount(values: unknown): number {
  return isPlainObject(values) && Array.isArray(values.messages) ? values.messages.length : 0;
}
