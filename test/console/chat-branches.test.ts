import { describe, expect, it } from "vitest";
import { chatBranchView, type BranchStateLike } from "../../web/src/lib/chat-branches.js";

function state(id: string, parent: string | null, at: number, messages: string[]): BranchStateLike & { checkpointId: string } {
  return { checkpointId: id, parentCheckpointId: parent, createdAt: new Date(1_000_000 + at).toISOString(), values: { messages } };
}

// A chat graph's checkpoints: input (before the message), the message added, the reply added.
const i0 = state("i0", null, 0, []);
const s0 = state("s0", "i0", 1, ["q1"]);
const s1 = state("s1", "s0", 2, ["q1", "a1"]);
const i1 = state("i1", "s1", 3, ["q1", "a1"]);
const s2 = state("s2", "i1", 4, ["q1", "a1", "q2"]);
const s3 = state("s3", "s2", 5, ["q1", "a1", "q2", "a2"]);
// q1 edited: a run from i0 with the new text starts with an input checkpoint whose parent is i0.
const e0 = state("e0", "i0", 10, []);
const e1 = state("e1", "e0", 11, ["q1b"]);
const e2 = state("e2", "e1", 12, ["q1b", "a1b"]);

describe("chatBranchView", () => {
  it("offers each message's edit from the checkpoint before it; no versions without a fork", () => {
    const view = chatBranchView([s3, s2, i1, s1, s0, i0], null);
    expect(view.tip?.checkpointId).toBe("s3");
    expect([...view.editFrom].map(([position, from]) => [position, from.checkpointId])).toEqual([
      [0, "i0"],
      [1, "s0"],
      [2, "i1"],
      [3, "s2"],
    ]);
    expect(view.siblings.size).toBe(0);
  });

  it("numbers a message's versions oldest first, on both branches, each leading to its branch's newest checkpoint", () => {
    const states = [e2, e1, e0, s3, s2, i1, s1, s0, i0];
    const edited = chatBranchView(states, null);
    expect(edited.tip?.checkpointId).toBe("e2");
    expect(edited.siblings.get(0)).toEqual({ index: 1, tips: ["s3", "e2"] });
    // Edited again from the same fork: the new version joins the others.
    expect(edited.editFrom.get(0)?.checkpointId).toBe("i0");

    const original = chatBranchView(states, "s3");
    expect(original.siblings.get(0)).toEqual({ index: 0, tips: ["s3", "e2"] });
    expect(original.siblings.has(2)).toBe(false);
  });

  it("leaves out what is not loaded: no edit for a message whose earlier checkpoint is on an older page", () => {
    const view = chatBranchView([s3, s2, i1], null);
    expect(view.editFrom.has(0)).toBe(false);
    expect(view.editFrom.get(3)?.checkpointId).toBe("s2");
  });
});

describe("chatBranchView with a tip not loaded yet", () => {
  it("knows no branches rather than describing another one", () => {
    const view = chatBranchView([s3, s2, i1, s1, s0, i0], "newer");
    expect(view.tip).toBeNull();
    expect(view.editFrom.size).toBe(0);
    expect(view.siblings.size).toBe(0);
  });
});
