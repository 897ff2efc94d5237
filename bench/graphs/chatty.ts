import { Annotation, END, START, StateGraph, type LangGraphRunnableConfig } from "@langchain/langgraph";

/** One node writing `events` (context, default 100) small custom stream events: a busy thread for the protocol benchmark. */
const State = Annotation.Root({ done: Annotation<number> });

export const graph = new StateGraph(State)
  .addNode("talk", (_state: unknown, config: LangGraphRunnableConfig) => {
    const count = (config.context as { events?: number } | undefined)?.events ?? 100;
    for (let index = 0; index < count; index++) config.writer?.({ index, text: "a token-sized chunk of text" });
    return { done: count };
  })
  .addEdge(START, "talk")
  .addEdge("talk", END)
  .compile();
