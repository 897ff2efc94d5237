import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
  type LangSmithParams,
} from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, type BaseMessage, type UsageMetadata } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";

export const DEFAULT_OFFLINE_MODEL_NAME = "offline-echo";
export const OFFLINE_PROVIDER = "hangar";

export interface OfflineChatModelFields extends BaseChatModelParams {
  /** Reported in replies, response_metadata and LangSmith params; defaults to "offline-echo". */
  modelName?: string;
}

export interface OfflineReply {
  text: string;
  /** `text` split into stream pieces; concatenated they are exactly `text`. */
  pieces: string[];
  usage: UsageMetadata;
}

// Keep system prompts readable inside a one-line reply.
const MAX_QUOTED_SYSTEM_PROMPT = 80;

/**
 * Built-in chat model for machines without provider keys. It answers deterministically so that
 * streaming, tracing and cost accounting can be exercised (and tested) end to end offline:
 * same messages in → same text, same chunks, same token counts out.
 */
export class OfflineChatModel extends BaseChatModel<BaseChatModelCallOptions, AIMessageChunk> {
  readonly modelName: string;

  static lc_name(): string {
    return "OfflineChatModel";
  }

  constructor(fields: OfflineChatModelFields = {}) {
    super(fields);
    this.modelName = fields.modelName ?? DEFAULT_OFFLINE_MODEL_NAME;
  }

  _llmType(): string {
    return "hangar-offline";
  }

  /** Lets tracers and the trace store attribute calls to this provider and model name. */
  override getLsParams(options: this["ParsedCallOptions"]): LangSmithParams {
    return { ...super.getLsParams(options), ls_provider: OFFLINE_PROVIDER, ls_model_name: this.modelName };
  }

  /**
   * Accepts tools so the model can stand in for a tool-calling model in an agent graph; it never
   * emits tool calls, so such an agent simply ends after one answer.
   */
  override bindTools(
    _tools: BindToolsInput[],
    _kwargs?: Partial<BaseChatModelCallOptions>,
  ): Runnable<BaseLanguageModelInput, AIMessageChunk, BaseChatModelCallOptions> {
    return this;
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    options.signal?.throwIfAborted();
    const reply = composeOfflineReply(messages, this.modelName);
    const message = new AIMessage({
      content: reply.text,
      usage_metadata: reply.usage,
      response_metadata: this.responseMetadata(),
    });
    return { generations: [{ text: reply.text, message }], llmOutput: { tokenUsage: toTokenUsage(reply.usage) } };
  }

  async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const reply = composeOfflineReply(messages, this.modelName);
    const lastIndex = reply.pieces.length - 1;
    for (const [index, piece] of reply.pieces.entries()) {
      options.signal?.throwIfAborted();
      // Usage and metadata ride on the final chunk only: chunk concatenation adds usage up and
      // concatenates string metadata, so repeating them would inflate the aggregate.
      const isLast = index === lastIndex;
      const chunk = new ChatGenerationChunk({
        text: piece,
        message: new AIMessageChunk({
          content: piece,
          ...(isLast ? { usage_metadata: reply.usage, response_metadata: this.responseMetadata() } : {}),
        }),
      });
      yield chunk;
      await runManager?.handleLLMNewToken(piece, undefined, undefined, undefined, undefined, { chunk });
    }
  }

  private responseMetadata(): Record<string, unknown> {
    return { model_name: this.modelName, finish_reason: "stop" };
  }
}

/** The reply for a conversation; pure, exported for tests. */
export function composeOfflineReply(messages: BaseMessage[], modelName: string): OfflineReply {
  const systemPrompt = messages
    .filter((message) => message.getType() === "system")
    .map((message) => message.text.trim())
    .filter(Boolean)
    .join(" ");
  const lastUser = [...messages].reverse().find((message) => message.getType() === "human");
  const userText = lastUser?.text.trim() || "(no user message)";
  const persona = systemPrompt ? ` (system prompt: "${truncate(systemPrompt, MAX_QUOTED_SYSTEM_PROMPT)}")` : "";
  const text = `Echo from ${modelName}${persona}: ${userText}`;

  const pieces = text.match(/\s*\S+/g) ?? [text];
  const inputTokens = messages.reduce((sum, message) => sum + countWords(message.text), 0);
  const outputTokens = pieces.length;
  return {
    text,
    pieces,
    usage: { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
  };
}

/** Whitespace-separated words: a deterministic stand-in for a tokenizer. */
export function countWords(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function toTokenUsage(usage: UsageMetadata): Record<string, number> {
  return { promptTokens: usage.input_tokens, completionTokens: usage.output_tokens, totalTokens: usage.total_tokens };
}
