/**
 * The service tier a call was served in, for tiered prices (OpenAI flex / priority, Anthropic
 * batch / priority). The response says what the provider really used (OpenAI answers "default"
 * to a request for "auto"), so it comes first; the requested tier is the fallback. Where each
 * shape carries it:
 * - OpenAI's response (wrapOpenAI's outputs): top-level `service_tier`;
 * - Anthropic's response: `usage.service_tier` ("standard", "priority", "batch");
 * - LangChain chat models: the message's `response_metadata` (either of the above inside it);
 * - OTLP spans: `openai.response.service_tier` / `gen_ai.openai.response.service_tier`, mapped
 *   to `outputs.service_tier` by span-to-run.ts;
 * - the request: `extra.invocation_params.service_tier` (LangChain, and OTLP's request attributes).
 */
import { isRecord } from "./normalizers/shared.js";

function field(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

function tierOf(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim().toLowerCase() : null;
}

/** A response-shaped object: an OpenAI completion, an Anthropic message or LangChain response_metadata. */
function responseTier(response: unknown): string | null {
  return tierOf(field(response, "service_tier")) ?? tierOf(field(field(response, "usage"), "service_tier"));
}

/** LangChain's `{generations: [[{message}]]}` outputs, serialized or plain. */
function generationTier(outputs: unknown): string | null {
  const generations = field(outputs, "generations");
  if (!Array.isArray(generations)) return null;
  for (const group of generations) {
    for (const generation of Array.isArray(group) ? group : [group]) {
      const message = field(generation, "message");
      const metadata = field(field(message, "kwargs"), "response_metadata") ?? field(message, "response_metadata");
      const tier = responseTier(metadata) ?? responseTier(field(generation, "generation_info"));
      if (tier !== null) return tier;
    }
  }
  return null;
}

export function identifyServiceTier(run: { outputs: unknown; extra: unknown }): string | null {
  return (
    responseTier(run.outputs) ??
    responseTier(field(run.outputs, "response_metadata")) ??
    generationTier(run.outputs) ??
    responseTier(field(run.outputs, "llm_output")) ??
    tierOf(field(field(run.extra, "invocation_params"), "service_tier"))
  );
}
