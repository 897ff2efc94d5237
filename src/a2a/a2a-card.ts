import { AgentCard, type SecurityScheme } from "@a2a-js/sdk";
import type { Assistant } from "../domain/assistant.js";
import { HANGAR_VERSION } from "../version.js";

/** How callers authenticate, as far as the card can tell them (an API key, or the deployment's own auth). */
export type CardAuth = "none" | "api-key" | "custom";

const INPUT_MODES = ["text/plain", "application/json"];
const OUTPUT_MODES = ["text/plain"];

function describe(assistant: Assistant): string {
  return assistant.description ?? `Hangar assistant "${assistant.name}" (graph ${assistant.graphId})`;
}

function securitySchemes(auth: CardAuth): Record<string, SecurityScheme> {
  if (auth === "api-key") {
    return { apiKey: { scheme: { $case: "apiKeySecurityScheme", value: { description: "A key of HANGAR_API_KEYS", location: "header", name: "x-api-key" } } } };
  }
  if (auth === "custom") {
    return { bearer: { scheme: { $case: "httpAuthSecurityScheme", value: { description: "What the deployment's auth handler accepts", scheme: "bearer", bearerFormat: "" } } } };
  }
  return {};
}

/** An assistant's A2A 1.0 agent card; `url` is its JSON-RPC endpoint (…/a2a/{assistant_id}). */
export function agentCardOf(assistant: Assistant, url: string, auth: CardAuth): AgentCard {
  const schemes = securitySchemes(auth);
  return {
    name: assistant.name,
    description: describe(assistant),
    // 1.0 first: clients pick the first interface they speak; 0.3 clients read the legacy card.
    supportedInterfaces: [
      { url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
      { url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "0.3" },
    ],
    provider: undefined,
    version: `${HANGAR_VERSION}+v${assistant.version}`,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: schemes,
    securityRequirements: Object.keys(schemes).map((name) => ({ schemes: { [name]: { list: [] } } })),
    defaultInputModes: INPUT_MODES,
    defaultOutputModes: OUTPUT_MODES,
    skills: [
      {
        id: assistant.graphId,
        name: assistant.name,
        description: describe(assistant),
        tags: [assistant.graphId],
        examples: [],
        inputModes: INPUT_MODES,
        outputModes: OUTPUT_MODES,
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}

/** The card on the wire for A2A 1.0 clients (protobuf JSON). */
export function agentCardJson(card: AgentCard): unknown {
  return AgentCard.toJSON(card);
}

/**
 * The same card in A2A 0.3's shape, for clients that send no A2A-Version (or 0.3): one `url`
 * with its `preferredTransport`, capabilities and skills as 0.3 names them.
 */
export function legacyAgentCardJson(card: AgentCard, url: string): Record<string, unknown> {
  const schemes = Object.fromEntries(
    Object.entries(card.securitySchemes).map(([name, scheme]) => [
      name,
      scheme.scheme?.$case === "apiKeySecurityScheme"
        ? { type: "apiKey", in: "header", name: scheme.scheme.value.name, description: scheme.scheme.value.description }
        : { type: "http", scheme: "bearer", description: scheme.scheme?.value.description ?? "" },
    ]),
  );
  return {
    protocolVersion: "0.3.0",
    name: card.name,
    description: card.description,
    url,
    preferredTransport: "JSONRPC",
    additionalInterfaces: [{ url, transport: "JSONRPC" }],
    version: card.version,
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    ...(Object.keys(schemes).length > 0 ? { securitySchemes: schemes, security: Object.keys(schemes).map((name) => ({ [name]: [] })) } : {}),
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map((skill) => ({ id: skill.id, name: skill.name, description: skill.description, tags: skill.tags, examples: skill.examples })),
  };
}
