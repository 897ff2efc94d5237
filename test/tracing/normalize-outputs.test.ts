import { describe, expect, it } from "vitest";
import { renderMessages } from "../../src/tracing/render-messages.js";

const question = { messages: [{ role: "user", content: "Say hi" }] };
const hi = [{ role: "assistant", content: [{ type: "text", text: "hi" }] }];

/** `toJSON()` of a @langchain/core message, as the LangChain tracers send it. */
function lc(className: string, kwargs: Record<string, unknown>, namespace = ["langchain_core", "messages"]) {
  return { lc: 1, type: "constructor", id: [...namespace, className], kwargs: { additional_kwargs: {}, response_metadata: {}, ...kwargs } };
}

describe("renderMessages: output shapes", () => {
  it("reads {choices: [{message}]}", () => {
    const rendered = renderMessages(question, {
      id: "chatcmpl-1",
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: "hi", refusal: null }, finish_reason: "stop" }],
    });
    expect(rendered.output_messages).toEqual(hi);
    expect(rendered.warnings).toEqual([]);
  });

  it("reads {message: {...}}", () => {
    const rendered = renderMessages(question, {
      model: "llama3.2",
      created_at: "2025-01-01T00:00:00Z",
      message: { role: "assistant", content: "hi" },
      done: true,
    });
    expect(rendered.output_messages).toEqual(hi);
  });

  it("reads {role, content}", () => {
    expect(renderMessages(question, { role: "assistant", content: "hi" }).output_messages).toEqual(hi);
    expect(renderMessages(question, { role: "assistant", content: [{ type: "text", text: "hi" }] }).output_messages).toEqual(hi);
  });

  it("reads the pair [role, content], including LangChain role names", () => {
    expect(renderMessages(question, ["assistant", "hi"]).output_messages).toEqual(hi);
    expect(renderMessages(question, ["ai", [{ type: "text", text: "hi" }]]).output_messages).toEqual(hi);
  });

  it("reads a native {messages} output", () => {
    expect(renderMessages(question, { messages: hi }).output_messages).toEqual(hi);
  });

  it("reads LangChain generations and serialized messages (JS tracer shape)", () => {
    const inputs = {
      messages: [
        [
          lc("SystemMessage", { content: "You are helpful." }),
          lc("HumanMessage", { content: [{ type: "text", text: "Weather in Paris?" }, { type: "image_url", image_url: { url: "https://x.test/p.png" } }] }),
          lc("AIMessage", {
            content: "",
            tool_calls: [{ id: "call_1", name: "get_weather", args: { city: "Paris" } }],
            invalid_tool_calls: [],
            usage_metadata: { input_tokens: 20, output_tokens: 5, total_tokens: 25 },
          }),
          lc("ToolMessage", { content: "sunny", tool_call_id: "call_1" }),
        ],
      ],
    };
    const outputs = {
      generations: [
        [
          {
            text: "It is sunny.",
            message: lc("AIMessage", {
              content: "It is sunny.",
              tool_calls: [],
              invalid_tool_calls: [],
              usage_metadata: { input_tokens: 40, output_tokens: 6, total_tokens: 46 },
            }),
            generationInfo: { finish_reason: "stop" },
          },
        ],
      ],
      llmOutput: { tokenUsage: { promptTokens: 40, completionTokens: 6, totalTokens: 46 } },
    };
    const rendered = renderMessages(inputs, outputs);
    expect(rendered.format).toBe("native");
    expect(rendered.warnings).toEqual([]);
    expect(rendered.input_messages).toEqual([
      { role: "system", content: [{ type: "text", text: "You are helpful." }] },
      { role: "user", content: [{ type: "text", text: "Weather in Paris?" }, { type: "image", url: "https://x.test/p.png" }] },
      {
        role: "assistant",
        content: [{ type: "tool_call", id: "call_1", name: "get_weather", args: { city: "Paris" } }],
        usage_metadata: { input_tokens: 20, output_tokens: 5, total_tokens: 25 },
      },
      { role: "tool", tool_call_id: "call_1", content: [{ type: "text", text: "sunny" }] },
    ]);
    expect(rendered.output_messages).toEqual([
      {
        role: "assistant",
        content: [{ type: "text", text: "It is sunny." }],
        usage_metadata: { input_tokens: 40, output_tokens: 6, total_tokens: 46 },
      },
    ]);
  });

  it("reads Python-serialized LangChain messages with Anthropic content, without duplicating tool calls", () => {
    const ns = ["langchain", "schema", "messages"];
    const rendered = renderMessages(
      { messages: [[lc("HumanMessage", { content: "weather?", type: "human" }, ns)]] },
      {
        generations: [
          [
            {
              text: "",
              type: "ChatGeneration",
              message: lc(
                "AIMessage",
                {
                  content: [
                    { type: "thinking", thinking: "Use the tool.", signature: "sig" },
                    { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Rome" } },
                  ],
                  tool_calls: [{ name: "get_weather", args: { city: "Rome" }, id: "toolu_1", type: "tool_call" }],
                  invalid_tool_calls: [{ name: "broken", args: "{not json", id: "toolu_2", error: "bad", type: "invalid_tool_call" }],
                  type: "ai",
                },
                ns,
              ),
            },
          ],
        ],
        llm_output: { usage: { input_tokens: 10, output_tokens: 3 } },
        run: null,
        type: "LLMResult",
      },
    );
    expect(rendered.output_messages).toEqual([
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Use the tool.", extras: { signature: "sig" } },
          { type: "tool_call", id: "toolu_1", name: "get_weather", args: { city: "Rome" } },
          { type: "tool_call", id: "toolu_2", name: "broken", args: { _raw: "{not json" } },
        ],
      },
    ]);
    expect(rendered.warnings).toEqual(["output message 0: tool call arguments are not valid JSON (kept under _raw)"]);
  });

  it("reads LangChain completion-model runs ({prompts} → generations with text)", () => {
    const rendered = renderMessages({ prompts: ["Tell me a joke"] }, { generations: [[{ text: "Why did…", generationInfo: {} }]] });
    expect(rendered.format).toBe("native");
    expect(rendered.input_messages).toEqual([{ role: "user", content: [{ type: "text", text: "Tell me a joke" }] }]);
    expect(rendered.output_messages).toEqual([{ role: "assistant", content: [{ type: "text", text: "Why did…" }] }]);
  });

  it("renders recognised outputs even when the inputs are not messages", () => {
    const rendered = renderMessages({ question: "hi?" }, { choices: [{ message: { role: "assistant", content: "hi" } }] });
    expect(rendered.format).toBe("openai");
    expect(rendered.input_messages).toEqual([]);
    expect(rendered.output_messages).toEqual(hi);
    expect(rendered.warnings).toHaveLength(1);
    expect(rendered.warnings[0]).toMatch(/^inputs: unrecognized message format/);
  });

  it("reports an unknown output shape without rendering it", () => {
    const rendered = renderMessages(question, { answer: "hi" });
    expect(rendered.format).toBe("openai");
    expect(rendered.output_messages).toEqual([]);
    expect(rendered.warnings).toHaveLength(1);
    expect(rendered.warnings[0]).toMatch(/^outputs: unrecognized message format/);
  });
});
