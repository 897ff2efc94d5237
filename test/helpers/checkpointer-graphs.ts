import { Annotation, END, START, StateGraph, interrupt } from "@langchain/langgraph";
import type { RunStampingCheckpointer } from "../../src/db/checkpointer.js";

/** State of the small graphs the checkpointer tests run directly (no server). */
export const StepsState = Annotation.Root({
  steps: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
  answer: Annotation<string | null>({ reducer: (_, b) => b, default: () => null }),
});

/**
 * `twoSteps`: first, then second, each appending its name; a run writes four checkpoints (input,
 * __start__, first, second), each put chained behind the previous one. `asksHuman`: one node that
 * calls interrupt().
 */
export function checkpointerGraphs(saver: RunStampingCheckpointer) {
  const twoSteps = new StateGraph(StepsState)
    .addNode("first", () => ({ steps: ["first"] }))
    .addNode("second", () => ({ steps: ["second"] }))
    .addEdge(START, "first")
    .addEdge("first", "second")
    .addEdge("second", END)
    .compile({ checkpointer: saver });
  const asksHuman = new StateGraph(StepsState)
    .addNode("ask", () => ({ answer: interrupt("what now?") as string, steps: ["asked"] }))
    .addEdge(START, "ask")
    .addEdge("ask", END)
    .compile({ checkpointer: saver });
  return { twoSteps, asksHuman };
}

/** The config of a run of `runId` on `threadId`, as the worker gives it (run_id stamps checkpoints). */
export const runConfig = (threadId: string, runId: string) => ({ configurable: { thread_id: threadId, run_id: runId } });
