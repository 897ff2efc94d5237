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
