import { describe, expect, it } from "vitest";
import { countTokens, encodingForModel } from "../../src/tracing/estimate-tokens.js";
import { extractUsage } from "../../src/tracing/extract-usage.js";
import { identifyModel } from "../../src/tracing/identify-model.js";
import { renderMessages } from "../../src/tracing/render-messages.js";

function extract(runType: string, inputs: unknown, outputs: unknown, extra: unknown = {}, modelName: string | null = null) {
  return extractUsage({ runType, inputs, outputs, extra }, renderMessages(inputs, outputs), modelName);
}

const chatInputs = { messages: [{ role: "user", content: "Hello there" }] };

describe("extractUsage", () => {
  it("takes usage_metadata from the outputs, with total filled in", () => {
    const result = extract("llm", chatInputs, {
      messages: [{ role: "assistant", content: [{ type: "text", text: "Hi" }] }],
      usage_metadata: { input_tokens: 12, output_tokens: 3, input_token_details: { cache_read: 4 } },
    });
    expect(result).toEqual({
      usage: { input_tokens: 12, output_tokens: 3, total_tokens: 15, input_token_details: { cache_read: 4 } },
      tokensEstimated: false,
      warnings: [],
      source: "outputs",
    });
  });

  it("takes usage_metadata from the last output message of an LLM run", () => {
    const result = extract("llm", chatInputs, {
      messages: [{ role: "assistant", content: [{ type: "text", text: "Hi" }], usage_metadata: { input_tokens: 9, output_tokens: 2, total_tokens: 11 } }],
    });
    expect(result.source).toBe("outputs");
    expect(result.usage).toEqual({ input_tokens: 9, output_tokens: 2, total_tokens: 11 });
  });

  it("ignores message-level usage on non-LLM runs (their LLM children report it)", () => {
    const result = extract("chain", chatInputs, {
      messages: [{ role: "assistant", content: [{ type: "text", text: "Hi" }], usage_metadata: { input_tokens: 9, output_tokens: 2 } }],
    });
    expect(result).toEqual({ usage: {}, tokensEstimated: false, warnings: [], source: "none" });
  });

  it("sums usage over LangChain generations", () => {
    const message = (input: number, output: number) => ({
      lc: 1,
      type: "constructor",
      id: ["langchain_core", "messages", "AIMessage"],
      kwargs: { content: "x", usage_metadata: { input_tokens: input, output_tokens: output, total_tokens: input + output, output_token_details: { reasoning: 1 } } },
    });
    const result = extract("llm", chatInputs, { generations: [[{ text: "x", message: message(10, 2) }, { text: "x", message: message(10, 3) }]] });
    expect(result.usage).toEqual({ input_tokens: 20, output_tokens: 5, total_tokens: 25, output_token_details: { reasoning: 2 } });
  });

  it("falls back to extra.metadata.usage_metadata", () => {
    const result = extract("llm", chatInputs, { role: "assistant", content: "Hi" }, {
      metadata: { ls_provider: "openai", ls_model_name: "gpt-4o", usage_metadata: { input_tokens: 5, output_tokens: 1, total_tokens: 6 } },
    });
    expect(result.source).toBe("metadata");
    expect(result.usage).toEqual({ input_tokens: 5, output_tokens: 1, total_tokens: 6 });
    expect(result.tokensEstimated).toBe(false);
  });

  it("warns about unknown usage keys and ignores them", () => {
    const result = extract("llm", chatInputs, {
      role: "assistant",
      content: "Hi",
      usage_metadata: { input_tokens: 5, output_tokens: 1, prompt_tokens: 5, cost_usd: 0.1, input_token_details: { cache_read: "many" } },
    });
    expect(result.usage).toEqual({ input_tokens: 5, output_tokens: 1, total_tokens: 6 });
    expect(result.warnings).toEqual([
      'outputs.usage_metadata: unknown usage key "prompt_tokens" ignored',
      'outputs.usage_metadata: unknown usage key "cost_usd" ignored',
      'outputs.usage_metadata: usage key "input_token_details.cache_read" is not a number; ignored',
    ]);
  });

  it("keeps explicit cost keys", () => {
    const result = extract("llm", chatInputs, {
      role: "assistant",
      content: "Hi",
      usage_metadata: { input_tokens: 5, output_tokens: 1, input_cost: 0.00015, output_cost: 0.0003, input_cost_details: { cache_read: 0.00001 } },
    });
    expect(result.usage).toEqual({
      input_tokens: 5,
      output_tokens: 1,
      total_tokens: 6,
      input_cost: 0.00015,
      output_cost: 0.0003,
      input_cost_details: { cache_read: 0.00001 },
    });
  });

  it("maps OpenAI chat usage with cached, audio and reasoning tokens", () => {
    const result = extract("llm", chatInputs, {
      id: "chatcmpl-1",
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: "Hi" }, finish_reason: "stop" }],
      usage: {
        prompt_tokens: 2006,
        completion_tokens: 300,
        total_tokens: 2306,
        prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 192, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
    });
    expect(result.source).toBe("provider");
    expect(result.usage).toEqual({
      input_tokens: 2006,
      output_tokens: 300,
      total_tokens: 2306,
      input_token_details: { cache_read: 1920 },
      output_token_details: { reasoning: 192 },
    });
  });

  it("maps Anthropic usage: cache tokens are added to input_tokens", () => {
    const result = extract("llm", { system: "s", messages: [{ role: "user", content: "Hi" }] }, {
      id: "msg_1",
      type: "message",
      role: "assistant",
      content: [{ type: "text", text: "Hello" }],
      usage: { input_tokens: 50, output_tokens: 503, cache_creation_input_tokens: 2051, cache_read_input_tokens: 100 },
    });
    expect(result.source).toBe("provider");
    expect(result.usage).toEqual({
      input_tokens: 2201,
      output_tokens: 503,
      total_tokens: 2704,
      input_token_details: { cache_creation: 2051, cache_read: 100 },
    });
  });

  it("maps OpenAI Responses API usage and LangChain llm_output token usage", () => {
    const responses = extract("llm", chatInputs, {
      role: "assistant",
      content: "Hi",
      usage: { input_tokens: 36, input_tokens_details: { cached_tokens: 0 }, output_tokens: 87, output_tokens_details: { reasoning_tokens: 64 }, total_tokens: 123 },
    });
    expect(responses.usage).toEqual({ input_tokens: 36, output_tokens: 87, total_tokens: 123, output_token_details: { reasoning: 64 } });
    const python = extract("llm", chatInputs, { generations: [[{ text: "Hi" }]], llm_output: { token_usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } } });
    expect(python.usage).toEqual({ input_tokens: 7, output_tokens: 2, total_tokens: 9 });
  });

  it("estimates tokens for an LLM run without any counts", () => {
    const result = extract("llm", chatInputs, { role: "assistant", content: "General Kenobi!" }, {}, "gpt-4o-mini");
    const encoding = encodingForModel("gpt-4o-mini");
    expect(encoding).toBe("o200k_base");
    const input = countTokens("Hello there", encoding);
    const output = countTokens("General Kenobi!", encoding);
    expect(input).toBeGreaterThan(0);
    expect(result).toEqual({
      usage: { input_tokens: input, output_tokens: output, total_tokens: input + output },
      tokensEstimated: true,
      warnings: [],
      source: "estimated",
    });
  });

  it("estimates tool calls, uses cl100k_base for other models, and keeps explicit costs", () => {
    const outputs = {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "lookup", arguments: '{"q":"x"}' } }],
      usage_metadata: { total_cost: 0.01 },
    };
    const result = extract("llm", chatInputs, outputs, {}, "claude-3-5-haiku");
    expect(encodingForModel("claude-3-5-haiku")).toBe("cl100k_base");
    expect(result.tokensEstimated).toBe(true);
    expect(result.source).toBe("outputs");
    expect(result.usage.output_tokens).toBe(countTokens('lookup {"q":"x"}', "cl100k_base"));
    expect(result.usage.total_cost).toBe(0.01);
  });

  it("counts pathological input quickly and special tokens as text", () => {
    const started = performance.now();
    expect(countTokens("a".repeat(50_000), "cl100k_base")).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(countTokens("<|endoftext|>", "cl100k_base")).toBeGreaterThan(1);
  });

  it("reports nothing for a non-LLM run without usage", () => {
    expect(extract("chain", { question: "q" }, { answer: "a" })).toEqual({ usage: {}, tokensEstimated: false, warnings: [], source: "none" });
  });
});

describe("identifyModel", () => {
  it("prefers ls_model_name, then inputs.model, then inputs.model_name, then invocation params", () => {
    expect(identifyModel({ inputs: { model: "gpt-4o" }, extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } } })).toEqual({
      modelName: "gpt-4o-mini",
      provider: "openai",
    });
    expect(identifyModel({ inputs: { model: "gpt-4o", model_name: "x" }, extra: {} })).toEqual({ modelName: "gpt-4o", provider: null });
    expect(identifyModel({ inputs: { model_name: "claude-3-haiku" }, extra: null })).toEqual({ modelName: "claude-3-haiku", provider: null });
    expect(identifyModel({ inputs: {}, extra: { invocation_params: { model: "gemini-2.5-pro" } } }).modelName).toBe("gemini-2.5-pro");
    expect(identifyModel({ inputs: "prompt", extra: undefined })).toEqual({ modelName: null, provider: null });
  });
});
