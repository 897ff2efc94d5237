/**
 * Graph values hold LangChain objects (messages, documents) from whatever copy of
 * @langchain/core the graph module imported. The wire wants plain dicts the way LangGraph
 * Platform sends them (`{type: "ai", content, id, tool_calls, ...}`), not LangChain's
 * `{lc: 1, type: "constructor", ...}` serialization, so anything with `toDict()` is flattened.
 * Duck-typed on purpose: `instanceof` fails across package copies.
 */
export function toWireValue(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value, wireReplacer) ?? "null");
}

/** JSON text of a graph value in wire form, for SSE data lines and stored events. */
export function stringifyWireValue(value: unknown): string {
  return JSON.stringify(value ?? null, wireReplacer) ?? "null";
}

function wireReplacer(this: unknown, key: string, value: unknown): unknown {
  // `this[key]` is the value before any toJSON() ran, which is where toDict lives.
  const raw = (this as Record<string, unknown>)[key];
  if (raw !== null && typeof raw === "object" && typeof (raw as { toDict?: unknown }).toDict === "function") {
    const { type, data } = (raw as { toDict(): { type: string; data: Record<string, unknown> } }).toDict();
    return { ...data, type };
  }
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Error) return { error: value.name, message: value.message };
  return value;
}
