import { describe, expect, it } from "vitest";
import { branchCount, changedKeys, timelineRows, type CheckpointLike } from "../../web/src/lib/checkpoint-timeline.js";

const checkpoint = (id: string, parent: string | null, step: number, values: unknown, extra: Partial<CheckpointLike> = {}): CheckpointLike => ({
  checkpointId: id,
  parentCheckpointId: parent,
  next: [],
  values,
  metadata: { step, source: "loop" },
  ...extra,
});

// Newest first, as Thread.history answers: a run (a → b → c), then an edit forking from b.
const HISTORY = [
  checkpoint("d", "b", 2, { total: 10 }, { metadata: { step: 2, source: "update" } }),
  checkpoint("c", "b", 2, { total: 4 }),
  checkpoint("b", "a", 1, { total: 2 }, { next: ["double"] }),
  checkpoint("a", null, 0, { total: 1 }, { next: ["add"] }),
];

describe("timelineRows", () => {
  it("names the node that wrote each checkpoint and what it changed against its parent", () => {
    const rows = timelineRows(HISTORY);
    expect(rows.map((row) => [row.id, row.step, row.writers])).toEqual([
      ["d", 2, ["update"]],
      ["c", 2, ["double"]],
      ["b", 1, ["add"]],
      ["a", 0, []],
    ]);
    expect(rows[1]!.changes).toEqual([{ path: "total", kind: "changed", before: 2, after: 4 }]);
  });

  it("marks forks and branch tips; a parent not loaded yet leaves the diff unknown", () => {
    const rows = timelineRows(HISTORY);
    expect(rows.filter((row) => row.startsBranch).map((row) => row.id)).toEqual(["d", "c"]);
    expect(rows.filter((row) => row.isTip).map((row) => row.id)).toEqual(["d", "c"]);
    expect(branchCount(rows)).toBe(2);
    expect(timelineRows(HISTORY.slice(0, 2))[0]!.changes).toBeNull();
  });

  it("puts each checkpoint on a branch, with the lanes that pass its row down to each fork point", () => {
    const rows = timelineRows(HISTORY);
    // d's branch (0) runs from d through b to a; c's (1) from c down to b, where it forked.
    expect(rows.map((row) => [row.id, row.branch, row.lanes, row.forkedFrom])).toEqual([
      ["d", 0, [0], null],
      ["c", 1, [0, 1], "b"],
      ["b", 0, [0, 1], null],
      ["a", 0, [0], null],
    ]);
  });
});

describe("changedKeys", () => {
  it("keeps only the top-level keys an edit changed", () => {
    expect(changedKeys({ total: 2, log: ["a"], step: 1 }, { total: 3, log: ["a"], step: 1 })).toEqual({ total: 3 });
    expect(changedKeys({ log: ["a"] }, { log: ["a", "b"], extra: true })).toEqual({ log: ["a", "b"], extra: true });
  });
});
