import { z } from "zod";
import { isUuid } from "../domain/ids.js";
import type { DeploymentConfig } from "./deployment-config.js";

/**
 * langgraph.json `http.mcp` / `http.a2a` (Hangar's own keys; `http.disable_mcp` and
 * `http.disable_a2a` are LangGraph Platform's): which assistants the protocol offers.
 *
 *     "http": { "mcp": { "graphs": ["agent"], "assistants": ["<assistant uuid>"] } }
 *
 * Without the key every assistant the caller may read is offered; with it, those of the listed
 * graphs and the listed assistants. A wrong value stops start-up naming the key.
 */
const ExposureSchema = z.strictObject({
  graphs: z.array(z.string().min(1)).optional(),
  assistants: z.array(z.string().refine(isUuid, "must be an assistant id (a UUID)")).optional(),
});

export type AgentProtocol = "mcp" | "a2a";

/** Which assistants a protocol offers: those with a listed id, and those of a listed graph. */
export interface ExposedAssistants {
  assistantIds: readonly string[];
  graphIds: readonly string[];
}

export function isProtocolDisabled(deployment: DeploymentConfig, protocol: AgentProtocol): boolean {
  return deployment.http?.[`disable_${protocol}`] === true;
}

/** The assistants `protocol` offers (null: all), checked against the deployed graphs. */
export function exposedAssistants(deployment: DeploymentConfig, protocol: AgentProtocol, deployedGraphs: readonly string[]): ExposedAssistants | null {
  const raw = deployment.http?.[protocol];
  if (raw === undefined || raw === null) return null;
  const parsed = ExposureSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${[`http.${protocol}`, ...issue.path].join(".")}: ${issue.message}`);
    throw new Error(`Invalid deployment config ${deployment.path}: ${problems.join("; ")}`);
  }
  const graphIds = parsed.data.graphs ?? [];
  const unknown = graphIds.filter((graphId) => !deployedGraphs.includes(graphId));
  if (unknown.length > 0) {
    throw new Error(
      `Invalid deployment config ${deployment.path}: http.${protocol}.graphs names graphs that are not deployed (${unknown.join(", ")}); deployed: ${deployedGraphs.join(", ")}`,
    );
  }
  return { graphIds, assistantIds: (parsed.data.assistants ?? []).map((id) => id.toLowerCase()) };
}
