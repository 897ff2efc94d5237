import { describe, expect, it } from "vitest";
import { runSteps, runsOfNode, type StepStateLike } from "../../web/src/lib/run-steps.js";

/** States as Thread.history returns them, newest first. */
function state(id: string, parent: string | null, at: number, step: number, source: string, values: unknown, tasks: StepStateLike["tasks"]): StepStateLike {
  return { checkpointId: id, parentCheckpointId: parent, createdAt: new Date(1_000_000 + at).toISOString(), values, metadata: { step, source }, tasks };
}

const input = state("c0", null, 0, -1, "input", {}, [{ id: "t0", name: "__start__", result: { n: 1 } }]);
const afterInput = state("c1", "c0", 5, 0, "loop", { n: 1 }, [{ id: "t1", name: "add", result: { n: 2 } }]);
const afterAdd = state("c2", "c1", 305, 1, "loop", { n: 2 }, [
  { id: "t2", name: "double", result: { n: 4 } },
  { id: "t3", name: "child", result: null, checkpointNs: "child:t3" },
]);
const afterDouble = state("c3", "c2", 1305, 2, "loop", { n: 4 }, []);

describe("runSteps", () => {
  it("turns checkpoints into steps: tasks of a checkpoint ran after it, its values were their input, the next checkpoint closes the step", () => {
    const steps = runSteps([afterDouble, afterAdd, afterInput, input]);
    expect(steps.map((step) => [step.step, step.durationMs, step.nodes.map((run) => run.node)])).toEqual([
      [1, 300, ["add"]],
      [2, 1000, ["double", "child"]],
    ]);
    const add = steps[0]!.nodes[0]!;
    expect(add).toMatchObject({ input: { n: 1 }, output: { n: 2 }, isPending: false, checkpointNs: null });
    expect(steps[1]!.nodes[1]!.checkpointNs).toBe("child:t3");
  });

  it("shows the newest checkpoint's tasks as a step still running, and skips edits", () => {
    const edit = state("e1", "c1", 50, 1, "update", { n: 10 }, [{ id: "t9", name: "add" }]);
    const steps = runSteps([edit, afterInput, input]);
    // c1 → e1 is an edit, not a step; e1's own task has not run yet.
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ step: 2, durationMs: null, nodes: [{ node: "add", isPending: true, output: null, input: { n: 10 } }] });
  });

  it("follows the newest branch only, as far back as it is loaded", () => {
    const fork = state("f2", "c1", 900, 1, "loop", { n: 7 }, []);
    // f2 is newest: the branch is c0 → c1 → f2; c2 and c3 are another branch.
    const steps = runSteps([fork, afterDouble, afterAdd, afterInput, input]);
    expect(steps.map((step) => step.checkpointId)).toEqual(["c1"]);
    expect(steps[0]!.durationMs).toBe(895);
    expect(runSteps([afterDouble, afterAdd]).map((step) => step.checkpointId)).toEqual(["c2"]);
  });

  it("finds a node's runs, and a subgraph's inner node in its parent's", () => {
    const steps = runSteps([afterDouble, afterAdd, afterInput, input]);
    expect(runsOfNode(steps, "double").map((run) => run.taskId)).toEqual(["t2"]);
    expect(runsOfNode(steps, "child:inner").map((run) => run.taskId)).toEqual(["t3"]);
    expect(runsOfNode(steps, "missing")).toEqual([]);
  });
});
