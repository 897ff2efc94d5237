/**
 * Which model (and provider) an LLM run used, for pricing and token estimation. Precedence per
 * SPEC §6 / seed "Trace identification metadata": metadata `ls_model_name`, then `inputs.model`,
 * then `inputs.model_name`. LangChain also records the call's parameters in
 * `extra.invocation_params`, used as a last resort.
 */
import { isRecord } from "./normalizers/shared.js";

function nonEmptyString(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

function field(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

export function identifyModel(run: { inputs: unknown; extra: unknown }): { modelName: string | null; provider: string | null } {
  const metadata = field(run.extra, "metadata");
  const invocationParams = field(run.extra, "invocation_params");
  const modelName =
    nonEmptyString(field(metadata, "ls_model_name")) ??
    nonEmptyString(field(run.inputs, "model")) ??
    nonEmptyString(field(run.inputs, "model_name")) ??
    nonEmptyString(field(invocationParams, "model")) ??
    nonEmptyString(field(invocationParams, "model_name"));
  return { modelName, provider: nonEmptyString(field(metadata, "ls_provider")) };
}
