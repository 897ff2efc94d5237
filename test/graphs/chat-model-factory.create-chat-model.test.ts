import { ChatAnthropic } from "@langchain/anthropic";
import { ChatOpenAI } from "@langchain/openai";
import { describe, expect, it } from "vitest";
import { chooseChatModel, createChatModel } from "../../src/models/chat-model-factory.js";
import { OfflineChatModel } from "../../src/models/offline-chat-model.js";

const BOTH_KEYS = { OPENAI_API_KEY: "sk-test", ANTHROPIC_API_KEY: "sk-ant-test" };

describe("chooseChatModel", () => {
  it.each([
    // [modelName, env, provider, model]
    ["gpt-4o-mini", {}, "offline", "gpt-4o-mini"],
    ["gpt-4o-mini", { OPENAI_API_KEY: "sk-test" }, "openai", "gpt-4o-mini"],
    ["gpt-4o-mini", { OPENAI_API_KEY: "  " }, "offline", "gpt-4o-mini"],
    ["gpt-4o-mini", { ANTHROPIC_API_KEY: "sk-ant-test" }, "offline", "gpt-4o-mini"],
    ["llama3.1:8b", { OPENAI_API_KEY: "sk-test" }, "openai", "llama3.1:8b"],
    ["claude-sonnet-4-5", BOTH_KEYS, "anthropic", "claude-sonnet-4-5"],
    ["claude-sonnet-4-5", { OPENAI_API_KEY: "sk-test" }, "offline", "claude-sonnet-4-5"],
    ["anthropic:claude-3-5-haiku-latest", BOTH_KEYS, "anthropic", "claude-3-5-haiku-latest"],
    ["openai:gpt-4.1", BOTH_KEYS, "openai", "gpt-4.1"],
    ["offline-echo", BOTH_KEYS, "offline", "offline-echo"],
    [undefined, BOTH_KEYS, "offline", "offline-echo"],
  ] as const)("%s with %j → %s", (modelName, env, provider, model) => {
    expect(chooseChatModel({ modelName, env })).toEqual({ provider, model });
  });
});

describe("createChatModel", () => {
  it("constructs ChatOpenAI, honouring OPENAI_BASE_URL for compatible servers", async () => {
    const model = await createChatModel({
      modelName: "qwen2.5",
      env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" },
    });
    expect(model).toBeInstanceOf(ChatOpenAI);
    expect((model as ChatOpenAI).model).toBe("qwen2.5");
    expect((model as unknown as { clientConfig: { baseURL?: string } }).clientConfig.baseURL).toBe(
      "http://127.0.0.1:11434/v1",
    );
  });

  it("constructs ChatAnthropic for claude models", async () => {
    const model = await createChatModel({ modelName: "claude-sonnet-4-5", env: BOTH_KEYS });
    expect(model).toBeInstanceOf(ChatAnthropic);
    expect((model as ChatAnthropic).model).toBe("claude-sonnet-4-5");
  });

  it("falls back to the offline model named after the request", async () => {
    const model = await createChatModel({ modelName: "gpt-4o", env: {} });
    expect(model).toBeInstanceOf(OfflineChatModel);
    expect((model as OfflineChatModel).modelName).toBe("gpt-4o");
  });
});
