import { isJsonObject, type JsonObject } from "../domain/json.js";

/** What the system assistant of one graph is created with. */
export interface SystemAssistantDefaults {
  config: JsonObject;
  context: JsonObject | undefined;
}

/**
 * LangGraph Platform reads `LANGGRAPH_CONFIG` (usually set through langgraph.json `env`): a JSON
 * object keyed by graph id, each value the default `config` of that graph's system assistant,
 * with its `context` key taken out as the assistant's context. Read after the deployment's env
 * is applied, so the operator's own variable wins like every other one. A value that is not
 * such an object stops start-up: silently ignoring it would create assistants without the
 * settings the deployment asked for.
 */
export function readSystemAssistantDefaults(
  value: string | undefined,
  graphIds: readonly string[],
): { defaults: Map<string, SystemAssistantDefaults>; unknownGraphIds: string[] } {
  const defaults = new Map<string, SystemAssistantDefaults>();
  if (value === undefined || value.trim() === "") return { defaults, unknownGraphIds: [] };
  const fail = (problem: string): never => {
    throw new Error(`LANGGRAPH_CONFIG${problem.startsWith(".") ? "" : " "}${problem}`);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    return fail(`is not valid JSON (${(error as Error).message})`);
  }
  if (!isJsonObject(parsed)) return fail("must be a JSON object keyed by graph id");
  const known = new Set(graphIds);
  const unknownGraphIds: string[] = [];
  for (const [graphId, graphConfig] of Object.entries(parsed)) {
    if (!isJsonObject(graphConfig)) return fail(`.${graphId} must be an object (a config, optionally with "context")`);
    const { context, ...config } = graphConfig;
    if (context !== undefined && !isJsonObject(context)) return fail(`.${graphId}.context must be an object`);
    if (!known.has(graphId)) {
      unknownGraphIds.push(graphId);
      continue;
    }
    defaults.set(graphId, { config, context });
  }
  return { defaults, unknownGraphIds };
}
