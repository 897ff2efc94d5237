import path from "node:path";
import { Command, MemorySaver } from "@langchain/langgraph";
import { beforeAll, describe, expect, it } from "vitest";
import { loadGraphRegistry, type GraphRegistry } from "../../src/graphs/graph-registry.js";
import { createRecordingLog } from "./registry-test-helpers.js";

const EXAMPLE_CONFIG = path.resolve("examples/langgraph.json");

interface AgentResult {
  messages: Array<{ content: unknown; getType(): string; usage_metadata?: Record<string, number> }>;
}

describe("the example deployment", () => {
  let registry: GraphRegistry;
  const providerKeys = ["OPENAI_API_KEY", "ANTHROPIC_API_KEY"] as const;

  beforeAll(async () => {
    // The example must answer offline even on a developer machine that has provider keys.
    for (const key of providerKeys) delete process.env[key];
    ({ registry } = await loadGraphRegistry(EXAMPLE_CONFIG, createRecordingLog()));
  }, 60_000);

  it("deploys the agent graph with one model node", async () => {
    expect(registry.names()).toEqual(["agent", "approval"]);
    const drawing = await registry.getDrawing("agent");
    expect(drawing.nodes.map((node) => node.id)).toEqual(["__start__", "agent", "__end__"]);
  });

  it("serves the assistant context schema", async () => {
    const schemas = await registry.getSchemas("agent");
    expect(schemas.context_schema?.properties).toMatchObject({
      model_name: { type: "string", default: "offline-echo" },
      system_prompt: { type: "string", default: "You are a helpful assistant." },
    });
    expect(schemas.input_schema).toMatchObject({ properties: { messages: { langgraph_type: "messages" } } });
  });

  it("answers with the offline model and reports usage", async () => {
    const graph = await registry.resolve("agent");
    const result = (await graph.invoke(
      { messages: [{ role: "user", content: "hi" }] },
      { context: { model_name: "offline-echo" } },
    )) as AgentResult;
    const reply = result.messages.at(-1)!;
    expect(reply.getType()).toBe("ai");
    expect(reply.content).toBe('Echo from offline-echo (system prompt: "You are a helpful assistant."): hi');
    // 5 words of system prompt + 1 of user input; 11 reply words.
    expect(reply.usage_metadata).toEqual({ input_tokens: 6, output_tokens: 11, total_tokens: 17 });
  });

  it("uses the context's model name and system prompt", async () => {
    const graph = await registry.resolve("agent");
    const result = (await graph.invoke(
      { messages: [{ role: "user", content: "ping" }] },
      { context: { model_name: "offline-small", system_prompt: "Be terse." } },
    )) as AgentResult;
    expect(result.messages.at(-1)!.content).toBe('Echo from offline-small (system prompt: "Be terse."): ping');
  });

  it("streams the reply token by token in messages mode", async () => {
    const graph = await registry.resolve("agent");
    const chunks: Array<{ content: unknown; usage_metadata?: unknown }> = [];
    const stream = await graph.stream({ messages: [{ role: "user", content: "hello there" }] }, { streamMode: "messages" });
    for await (const item of stream) {
      const [chunk] = item as [{ content: unknown; usage_metadata?: unknown }, unknown];
      chunks.push(chunk);
    }
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((chunk) => chunk.content).join("")).toBe(
      'Echo from offline-echo (system prompt: "You are a helpful assistant."): hello there',
    );
    expect(chunks.at(-1)!.usage_metadata).toEqual({ input_tokens: 7, output_tokens: 12, total_tokens: 19 });
  });

  it("deploys the approval graph, which stops in interrupt() with a HumanInterrupt and sends the accepted draft", async () => {
    const drawing = await registry.getDrawing("approval");
    expect(drawing.nodes.map((node) => node.id)).toEqual(["__start__", "write_draft", "review", "send", "__end__"]);
    const graph = await registry.resolve("approval", { checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "approval-example" } };
    const stopped = (await graph.invoke({ messages: [{ role: "user", content: "where is my order?" }] }, config)) as {
      __interrupt__?: Array<{ value: unknown }>;
      draft: string;
    };
    expect(stopped.__interrupt__?.[0]?.value).toEqual([
      {
        action_request: { action: "send_reply", args: { reply: stopped.draft } },
        config: { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true },
        description: "Send this reply to the customer?",
      },
    ]);
    const sent = (await graph.invoke(new Command({ resume: [{ type: "accept", args: null }] }), config)) as AgentResult & { decision: string };
    expect(sent.decision).toBe("accept");
    expect(sent.messages.at(-1)?.getType()).toBe("ai");
    expect(sent.messages.at(-1)?.content).toBe(stopped.draft);
  });
});
