/**
 * LangChain's serialized objects made readable. Chain and tool runs record their inputs and
 * outputs as LangChain serializes them: a message is
 * `{"lc": 1, "type": "constructor", "id": ["langchain_core", "messages", "HumanMessage"], "kwargs": {…}}`.
 * For reading, each such object becomes what it stands for: a message its role and fields
 * (`{"type": "human", "content": "hi"}`), any other class its name and fields. Empty fields a
 * message always carries (`additional_kwargs: {}`, `tool_calls: []`, …) are left out.
 */

const MESSAGE_TYPES: Record<string, string> = {
  HumanMessage: "human",
  HumanMessageChunk: "human",
  AIMessage: "ai",
  AIMessageChunk: "ai",
  SystemMessage: "system",
  SystemMessageChunk: "system",
  ToolMessage: "tool",
  ToolMessageChunk: "tool",
  FunctionMessage: "function",
  ChatMessage: "chat",
  RemoveMessage: "remove",
};

export function readableLangChainJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(readableLangChainJson);
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  if (isSerializedConstructor(record)) {
    const className = record.id[record.id.length - 1] ?? "";
    const fields = Object.fromEntries(
      Object.entries(record.kwargs ?? {})
        .filter(([, field]) => !isEmpty(field))
        .map(([key, field]) => [key, readableLangChainJson(field)]),
    );
    const messageType = MESSAGE_TYPES[className];
    return messageType ? { type: messageType, ...fields } : { _class: className, ...fields };
  }
  return Object.fromEntries(Object.entries(record).map(([key, field]) => [key, readableLangChainJson(field)]));
}

/** Whether the value holds a LangChain-serialized object anywhere (so a readable view differs). */
export function hasLangChainJson(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasLangChainJson);
  if (typeof value !== "object" || value === null) return false;
  return isSerializedConstructor(value as Record<string, unknown>) || Object.values(value).some(hasLangChainJson);
}

function isSerializedConstructor(
  record: Record<string, unknown>,
): record is { lc: number; type: "constructor"; id: string[]; kwargs?: Record<string, unknown> } {
  return record.lc === 1 && record.type === "constructor" && Array.isArray(record.id) && record.id.every((part) => typeof part === "string");
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value).length === 0;
}
