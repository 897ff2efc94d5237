import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { DEFAULT_OFFLINE_MODEL_NAME, OfflineChatModel } from "./offline-chat-model.js";

export type ChatModelProvider = "openai" | "anthropic" | "offline";

export interface ChatModelChoice {
  provider: ChatModelProvider;
  /** Model name as the provider expects it (any `openai:` / `anthropic:` prefix removed). */
  model: string;
}

export interface CreateChatModelOptions {
  modelName?: string;
  /** Where provider keys are read from; defaults to process.env (deployment env is applied there). */
  env?: Readonly<Record<string, string | undefined>>;
}

const PROVIDER_PREFIX = /^(openai|anthropic)[:/]/i;

/**
 * Which provider serves `modelName`; pure, so tests can check it without any network.
 *
 * - `offline*` names always use the built-in model, even when a provider key is set: the
 *   example's default model must keep working on a machine that also has OPENAI_API_KEY.
 * - Anthropic-ish names (`claude*`, `anthropic:…`) need ANTHROPIC_API_KEY.
 * - Anything else goes to OpenAI when OPENAI_API_KEY is set (OPENAI_BASE_URL may point at any
 *   OpenAI-compatible server, which is why unknown names are not rejected).
 * - Without the matching key the offline model answers under the requested name, so a graph
 *   configured for a real model still runs on a fresh machine.
 */
export function chooseChatModel({ modelName, env = process.env }: CreateChatModelOptions): ChatModelChoice {
  const requested = modelName?.trim() || DEFAULT_OFFLINE_MODEL_NAME;
  const prefix = PROVIDER_PREFIX.exec(requested)?.[1]?.toLowerCase();
  const model = requested.replace(PROVIDER_PREFIX, "");
  if (/^offline/i.test(model)) return { provider: "offline", model };

  const isAnthropic = prefix === "anthropic" || (prefix === undefined && /^claude/i.test(model));
  if (isAnthropic) return { provider: hasValue(env.ANTHROPIC_API_KEY) ? "anthropic" : "offline", model };
  return { provider: hasValue(env.OPENAI_API_KEY) ? "openai" : "offline", model };
}

/**
 * Constructs (never calls) the chat model chosen by {@link chooseChatModel}. Each provider's SDK
 * is imported on first use, not when a graph imports this module: a server whose graphs use one
 * provider, or only the offline model, does not load the others (the OpenAI SDK alone is ~230
 * modules) at start-up.
 */
export async function createChatModel(options: CreateChatModelOptions = {}): Promise<BaseChatModel> {
  const env = options.env ?? process.env;
  const { provider, model } = chooseChatModel({ ...options, env });
  switch (provider) {
    case "openai": {
      const { ChatOpenAI } = await import("@langchain/openai");
      return new ChatOpenAI({
        model,
        apiKey: env.OPENAI_API_KEY,
        // Usage on streamed responses is what the trace store prices; keep it on explicitly.
        streamUsage: true,
        ...(hasValue(env.OPENAI_BASE_URL) ? { configuration: { baseURL: env.OPENAI_BASE_URL } } : {}),
      });
    }
    case "anthropic": {
      const { ChatAnthropic } = await import("@langchain/anthropic");
      return new ChatAnthropic({
        model,
        apiKey: env.ANTHROPIC_API_KEY,
        ...(hasValue(env.ANTHROPIC_BASE_URL) ? { anthropicApiUrl: env.ANTHROPIC_BASE_URL } : {}),
      });
    }
    case "offline":
      return new OfflineChatModel({ modelName: model });
  }
}

function hasValue(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "";
}
