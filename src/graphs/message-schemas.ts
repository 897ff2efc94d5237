import { messagesDeltaReducer, messagesStateReducer } from "@langchain/langgraph";
import type { JSONSchema } from "./graph-schemas.js";
import { getStateBuilder, type CompiledGraphLike } from "./graph-shapes.js";
import { withReachableDefinitions } from "./schema-definitions.js";

/**
 * JSON Schemas for LangChain messages, as LangGraph's message reducer accepts them
 * (`coerceMessageLikeToMessage` in @langchain/core): the schemas LangGraph's helpers and
 * typescript-json-schema derive describe either nothing (`{langgraph_type: "messages"}`) or
 * LangChain's class types (an unsatisfiable `allOf [object, string]` from `string & {}`, and only
 * `RemoveMessage` where a message goes). These say what a client may send, in keywords that mean
 * the same in draft-07 and 2020-12 (the dialects graphs' schemas come in) and without `$ref`, so
 * they can be put into any schema as they are.
 */

const CONTENT_BLOCK: JSONSchema = {
  type: "object",
  description: 'A content block, such as {"type": "text", "text": "…"} or {"type": "image_url", "image_url": {"url": "…"}}',
  properties: { type: { type: "string" }, text: { type: "string" } },
};

const MESSAGE_CONTENT: JSONSchema = {
  description: "Text, or a list of content blocks",
  anyOf: [{ type: "string" }, { type: "array", items: { anyOf: [CONTENT_BLOCK, { type: "string" }] } }],
};

// Optional fields a form may offer; other keys (additional_kwargs, response_metadata, usage_metadata…)
// pass as they are. Python clients send `null` for unset ones.
const OPTIONAL_FIELDS: Record<string, JSONSchema> = {
  id: { type: ["string", "null"], description: "Message id; an update with the id of an existing message replaces it" },
  name: { type: ["string", "null"] },
  tool_calls: { type: "array", items: { type: "object" }, description: "An AI message's tool calls ({id, name, args})" },
  tool_call_id: { type: "string", description: "A tool message's answer to this tool call" },
};

const ROLES = ["user", "assistant", "system", "developer", "tool"];
const TYPES = ["human", "ai", "system", "developer", "tool", "remove"];

/** One message, in every form LangGraph's message reducer turns into a message. */
export const MESSAGE_SCHEMA: JSONSchema = {
  description: "A chat message: {role, content}, {type, content}, a LangChain-serialized message, a string (a user message) or a [role, content] pair",
  anyOf: [
    {
      title: "Message with role",
      type: "object",
      properties: { role: { type: "string", examples: ROLES }, content: MESSAGE_CONTENT, ...OPTIONAL_FIELDS },
      required: ["role", "content"],
    },
    {
      title: "Message with type",
      type: "object",
      properties: { type: { type: "string", examples: TYPES }, content: MESSAGE_CONTENT, ...OPTIONAL_FIELDS },
      required: ["type", "content"],
    },
    {
      title: "Removal of a message",
      type: "object",
      properties: { type: { const: "remove" }, id: { type: "string" } },
      required: ["type", "id"],
    },
    {
      title: "LangChain-serialized message",
      type: "object",
      properties: {
        lc: { const: 1 },
        type: { const: "constructor" },
        id: { type: "array", items: { type: "string" }, description: 'Class path, e.g. ["langchain_core", "messages", "HumanMessage"]' },
        kwargs: { type: "object", properties: { content: MESSAGE_CONTENT } },
      },
      required: ["lc", "type", "id", "kwargs"],
    },
    { title: "User message text", type: "string" },
    {
      title: "[role, content] pair",
      type: "array",
      // `items` as a list means different things in draft-07 and 2020-12; either element's shape is named here.
      items: { anyOf: [{ type: "string" }, { type: "array" }] },
      minItems: 2,
      maxItems: 2,
    },
  ],
};

const MESSAGE_LIST: JSONSchema = { type: "array", items: MESSAGE_SCHEMA };

export type MessageSchemaKind = "input" | "output" | "state";

/**
 * A message channel's schema. Its values are message lists; an update (the input) may also be
 * one message, which the reducer appends, unless LangGraph checks the input against a list
 * (`listOnly`). `langgraph_type: "messages"` is LangGraph's marker
 * (Studio shows such a channel as a chat).
 */
export function messageChannelSchema(kind: MessageSchemaKind, options: { description?: unknown; listOnly?: boolean } = {}): JSONSchema {
  const { description, listOnly = false } = options;
  const schema: JSONSchema = kind === "input" && !listOnly ? { anyOf: [MESSAGE_LIST, MESSAGE_SCHEMA] } : { ...MESSAGE_LIST };
  return { ...schema, description: typeof description === "string" ? description : "A list of chat messages", langgraph_type: "messages" };
}

/** The message reducers of one copy of LangGraph: identity tells a message channel. */
export type MessageReducers = ReadonlySet<unknown>;

const OWN_MESSAGE_REDUCERS: MessageReducers = new Set<unknown>([messagesStateReducer, messagesDeltaReducer]);

/**
 * The message reducers of the LangGraph copy a graph's module resolves (`importFrom` imports a
 * specifier as that module would), with Hangar's own; Hangar's alone where that fails (the
 * schema helpers' loader reports such failures already).
 */
export async function loadMessageReducers(importFrom: (specifier: string) => Promise<Record<string, unknown>>): Promise<MessageReducers> {
  try {
    const module = await importFrom("@langchain/langgraph");
    return new Set([...OWN_MESSAGE_REDUCERS, module.messagesStateReducer, module.messagesDeltaReducer].filter((reducer) => typeof reducer === "function"));
  } catch {
    return OWN_MESSAGE_REDUCERS;
  }
}

/**
 * Names of the graph's channels that hold messages: those reduced by LangGraph's message
 * reducer (MessagesAnnotation, MessagesZodState, `reducer: messagesStateReducer`, MessagesValue),
 * read from the builder's public `channels` (BinaryOperatorAggregate's `operator`, DeltaChannel's
 * `reducer`).
 */
export function findMessageChannels(graph: CompiledGraphLike, reducers: MessageReducers): Set<string> {
  const channels = getStateBuilder(graph)?.channels ?? {};
  const names = new Set<string>();
  for (const [name, channel] of Object.entries(channels)) {
    if (typeof channel !== "object" || channel === null) continue;
    const { operator, reducer } = channel as { operator?: unknown; reducer?: unknown };
    if (reducers.has(operator) || reducers.has(reducer)) names.add(name);
  }
  return names;
}

/**
 * The schema with its message channels described by messageChannelSchema: the channels named,
 * and any property LangGraph marked `langgraph_type: "messages"`.
 */
export function withMessageChannels(
  schema: JSONSchema | null,
  kind: MessageSchemaKind,
  channels: ReadonlySet<string>,
  listOnlyInputs: ReadonlySet<string> = new Set(),
): JSONSchema | null {
  const properties = schema?.properties;
  if (schema === null || typeof properties !== "object" || properties === null) return schema;
  let changed = false;
  const described: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    const marked = typeof property === "object" && property !== null && (property as JSONSchema).langgraph_type === "messages";
    if (marked || channels.has(name)) {
      described[name] = messageChannelSchema(kind, { description: (property as JSONSchema | null)?.description, listOnly: listOnlyInputs.has(name) });
      changed = true;
    } else {
      described[name] = property;
    }
  }
  // The definitions only the replaced properties used (LangChain's message classes) go.
  return changed ? withReachableDefinitions({ ...schema, properties: described }) : schema;
}
