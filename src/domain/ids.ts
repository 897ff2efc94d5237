import { createHmac } from "node:crypto";
import { v4 as uuidv4, v5 as uuidv5, validate as isUuidString } from "uuid";

// The namespace LangGraph Platform derives system assistant ids from (uuid5 of the graph id), so
// clients that compute an assistant id from a graph name get the same id from Hangar.
const GRAPH_NAMESPACE = "6ba7b821-9dad-11d1-80b4-00c04fd430c8";

// uuid5 hashes (SHA-1) on every call, and every run created names its assistant through this:
// 0.5% of the server's CPU in the c=16 runs profile. Callers pass deployed graph ids only, so
// the cache holds a few entries; the bound keeps a misuse from growing it without end.
const SYSTEM_ASSISTANT_IDS = new Map<string, string>();
const SYSTEM_ASSISTANT_IDS_BOUND = 1_000;

export function systemAssistantId(graphId: string): string {
  let assistantId = SYSTEM_ASSISTANT_IDS.get(graphId);
  if (assistantId === undefined) {
    assistantId = uuidv5(graphId, GRAPH_NAMESPACE);
    if (SYSTEM_ASSISTANT_IDS.size < SYSTEM_ASSISTANT_IDS_BOUND) SYSTEM_ASSISTANT_IDS.set(graphId, assistantId);
  }
  return assistantId;
}

export function newId(): string {
  return uuidv4();
}

export function isUuid(value: string): boolean {
  return isUuidString(value);
}

/**
 * The thread an A2A conversation (its `contextId`) runs on, for one caller. Operators (an API key,
 * or anyone on an open server) share one space, and a UUID contextId is the thread id itself. Every
 * other name is keyed with `serverKey` (HMAC-SHA256 with a secret only the server knows,
 * db/sql/server-secret.ts): an operator's "support-chat", and every contextId of a user of custom
 * auth (`userIdentity`, UUIDs included), name threads nobody can compute in advance. So two users'
 * "support-chat" are two threads, and no caller can create the thread another's conversation will
 * run on (to block it, or to read what is said there), or learn whether it exists.
 */
export function threadIdForContext(serverKey: Buffer, contextId: string, userIdentity?: string): string {
  const name = isUuid(contextId) ? contextId.toLowerCase() : contextId;
  if (userIdentity === undefined && isUuid(name)) return name;
  // Length-prefixed parts: no identity/contextId pair can be re-split into another.
  const owner = userIdentity === undefined ? "operators" : `user:${userIdentity}`;
  const digest = createHmac("sha256", serverKey).update(`a2a-context\n${owner.length}:${owner}\n${name}`).digest();
  return uuidFromDigest(digest);
}

/** A UUID (version 8: custom, RFC 9562) made of the first 16 bytes of a digest. */
function uuidFromDigest(digest: Buffer): string {
  const bytes = Buffer.from(digest.subarray(0, 16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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
