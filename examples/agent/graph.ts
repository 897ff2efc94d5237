import { SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { END, MessagesZodState, START, StateGraph, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { z } from "zod";
// `.js` like the rest of the code base: tsx maps it to the .ts file, and tsc's NodeNext
// resolution accepts it without allowImportingTsExtensions.
import { createChatModel } from "../../src/models/chat-model-factory.js";

/**
 * The assistant's `context`: each assistant of this graph can pick its model and prompt.
 * Served as `context_schema` by GET /assistants/{id}/schemas.
 */
export const AgentContextSchema = z.object({
  model_name: z
    .string()
    .default("offline-echo")
    .describe("Chat model: offline-* (built in), an OpenAI model, or claude-* (needs the provider key)"),
  system_prompt: z.string().default("You are a helpful assistant.").describe("Prepended to every conversation"),
});

export type AgentContext = z.infer<typeof AgentContextSchema>;

// MessagesZodState is a zod v3 schema (LangGraph builds it with zod/v3), so zod v4's z.infer
// cannot read it; this is its state type.
type AgentState = { messages: BaseMessage[] };

async function callModel(state: AgentState, config: LangGraphRunnableConfig<Partial<AgentContext>>) {
  // LangGraph validates context against the schema but hands nodes the raw object, so the
  // defaults are applied here.
  const context = AgentContextSchema.parse(config.context ?? {});
  const model = await createChatModel({ modelName: context.model_name });
  const response = await model.invoke([new SystemMessage(context.system_prompt), ...state.messages], {
    signal: config.signal,
  });
  return { messages: [response] };
}

export const graph = new StateGraph(MessagesZodState, AgentContextSchema)
  .addNode("agent", callModel)
  .addEdge(START, "agent")
  .addEdge("agent", END)
  .compile({ name: "agent" });
