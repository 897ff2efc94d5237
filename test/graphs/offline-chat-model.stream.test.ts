import { HumanMessage, SystemMessage, type AIMessageChunk } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { OfflineChatModel, composeOfflineReply } from "../../src/models/offline-chat-model.js";

describe("OfflineChatModel", () => {
  const messages = [new SystemMessage("Answer briefly."), new HumanMessage("what is hangar")];

  it("answers deterministically from the last user message and the system prompt", async () => {
    const model = new OfflineChatModel({ modelName: "offline-test" });
    const first = await model.invoke(messages);
    const second = await model.invoke(messages);
    expect(first.content).toBe('Echo from offline-test (system prompt: "Answer briefly."): what is hangar');
    expect(second.content).toBe(first.content);
    expect(first.usage_metadata).toEqual({ input_tokens: 5, output_tokens: 10, total_tokens: 15 });
    expect(first.response_metadata).toMatchObject({ model_name: "offline-test" });
  });

  it("answers without a system prompt", () => {
    expect(composeOfflineReply([new HumanMessage("hi")], "m").text).toBe("Echo from m: hi");
    expect(composeOfflineReply([], "m").text).toBe("Echo from m: (no user message)");
  });

  it("streams word pieces, with usage on the final chunk only, and reports each token", async () => {
    const tokens: string[] = [];
    const model = new OfflineChatModel({
      modelName: "offline-test",
      callbacks: [{ handleLLMNewToken: (token: string) => void tokens.push(token) }],
    });
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await model.stream(messages)) chunks.push(chunk);

    expect(chunks.length).toBe(10);
    expect(chunks.map((chunk) => chunk.content).join("")).toBe(
      'Echo from offline-test (system prompt: "Answer briefly."): what is hangar',
    );
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage_metadata === undefined)).toBe(true);
    expect(chunks.at(-1)!.usage_metadata).toEqual({ input_tokens: 5, output_tokens: 10, total_tokens: 15 });
    expect(tokens).toEqual(chunks.map((chunk) => chunk.content));

    const aggregate = chunks.reduce((sum, chunk) => sum.concat(chunk));
    // Concatenation adds empty token-detail objects; the counts must not be inflated.
    expect(aggregate.usage_metadata).toMatchObject({ input_tokens: 5, output_tokens: 10, total_tokens: 15 });
  });

  it("identifies itself to tracers", () => {
    const model = new OfflineChatModel({ modelName: "offline-test" });
    expect(model._llmType()).toBe("hangar-offline");
    expect(model.getLsParams({})).toMatchObject({
      ls_provider: "hangar",
      ls_model_name: "offline-test",
      ls_model_type: "chat",
    });
  });

  it("accepts tools so it can stand in for a tool-calling model", async () => {
    const model = new OfflineChatModel();
    const bound = model.bindTools([{ type: "function", function: { name: "search", parameters: {} } }]);
    const reply = await bound.invoke([new HumanMessage("hi")]);
    expect(reply.content).toBe("Echo from offline-echo: hi");
    expect(reply.tool_calls).toEqual([]);
  });

  it("stops streaming when aborted", async () => {
    const controller = new AbortController();
    const model = new OfflineChatModel();
    const stream = await model.stream(messages, { signal: controller.signal });
    await stream.next();
    controller.abort();
    await expect(stream.next()).rejects.toThrow();
  });
});
