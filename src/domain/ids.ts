import { v4 as uuidv4, v5 as uuidv5, validate as isUuidString } from "uuid";

// The namespace LangGraph Platform derives system assistant ids from (uuid5 of the graph id), so
// clients that compute an assistant id from a graph name get the same id from Hangar.
const GRAPH_NAMESPACE = "6ba7b821-9dad-11d1-80b4-00c04fd430c8";

export function systemAssistantId(graphId: string): string {
  return uuidv5(graphId, GRAPH_NAMESPACE);
}

export function newId(): string {
  return uuidv4();
}

export function isUuid(value: string): boolean {
  return isUuidString(value);
}

// Namespace for threads named by an A2A contextId that is not itself a UUID (uuid5 of the id).
const A2A_CONTEXT_NAMESPACE = "2f0c7a56-4a0e-5d3e-9a51-6a2a7c0e1d11";
// Parent of each custom-auth user's own namespace of context ids (uuid5 of the identity).
const A2A_USER_CONTEXTS_NAMESPACE = "0f82a34d-62f6-48ed-ba15-9d64c2380d9f";

/**
 * The thread an A2A conversation (its `contextId`) runs on, for one caller. Operators (an API key,
 * or anyone on an open server) share one space: a UUID contextId is the thread id itself, any
 * other string always names the same derived thread. A user of custom auth (`userIdentity`) has a
 * space of their own: every contextId, UUIDs included, names a thread derived from the identity
 * and the id, so two users' "support-chat" are two threads, and neither can block the other's
 * or learn whether it exists.
 */
export function threadIdForContext(contextId: string, userIdentity?: string): string {
  const name = isUuid(contextId) ? contextId.toLowerCase() : contextId;
  if (userIdentity !== undefined) return uuidv5(name, uuidv5(userIdentity, A2A_USER_CONTEXTS_NAMESPACE));
  return isUuid(name) ? name : uuidv5(name, A2A_CONTEXT_NAMESPACE);
}

// Namespace for the ids of LangSmith projects (sessions) named by runs without a session_id.
const TRACING_PROJECT_NAMESPACE = "9c2b4f0e-6d1a-5b7e-8f3c-2a4d6e8b0c1f";

/**
 * The id of a tracing project (LangSmith "session") that runs name only by `session_name`, as the
 * langsmith SDK sends them: always the same for a name, so `GET /sessions?name=` and a query by
 * that id find the same runs.
 */
export function tracingProjectId(projectName: string): string {
  return uuidv5(projectName, TRACING_PROJECT_NAMESPACE);
}
