import { setTimeout as sleep } from "node:timers/promises";
import { Annotation, END, START, StateGraph, type LangGraphRunnableConfig } from "@langchain/langgraph";

/**
 * Three nodes in a row, each waiting `node_ms` (context, default 50) and counting itself: a run
 * that holds a worker slot ~150 ms while using almost no CPU, like a graph waiting on a model. For
 * the many-streams benchmark (bench/streams.ts).
 */
const State = Annotation.Root({ steps: Annotation<number>({ reducer: (left, right) => left + right, default: () => 0 }) });

const step = async (_state: unknown, config: LangGraphRunnableConfig) => {
  await sleep((config.context as { node_ms?: number } | undefined)?.node_ms ?? 50);
  return { steps: 1 };
};

export const graph = new StateGraph(State)
  .addNode("first", step)
  .addNode("second", step)
  .addNode("third", step)
  .addEdge(START, "first")
  .addEdge("first", "second")
  .addEdge("second", "third")
  .addEdge("third", END)
  .compile();
