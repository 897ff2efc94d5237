import type { JSONSchema } from "../graph-schemas.js";
import { MESSAGE_SCHEMA } from "../message-schemas.js";
import { DEFINITION_REF, withReachableDefinitions } from "../schema-definitions.js";

// LangChain's message classes as typescript-json-schema names their definitions:
// `BaseMessage<MessageStructure<MessageToolSet>,MessageType>`, `AIMessageChunk<…>_1`, `RemoveMessage`.
const MESSAGE_CLASS = /^(?:Base|Human|AI|System|Tool|Chat|Function|Remove)Message(?:Chunk)?(?:<.*>)?(?:_\d+)?$/;

const PRIMITIVE_TYPES = new Set(["string", "number", "integer", "boolean"]);

/**
 * Makes a schema converted from TypeScript types say what the types accept:
 * - `T & {}` (TypeScript's "any T but null", as in LangChain's `MessageType = (string & {}) | …`)
 *   converts to `allOf [{type: "object"}, {type: "string"}]`, which nothing satisfies: it is T.
 * - A LangChain message class converts to its class members, which no JSON value has (and
 *   `BaseMessage` to `oneOf` the one subclass the converter saw, RemoveMessage): a message is
 *   MESSAGE_SCHEMA, the forms LangGraph turns into messages.
 * - Definitions nothing refers to any more are dropped (the message classes' took ~100 KB).
 */
export function repairStaticSchema(schema: JSONSchema): JSONSchema {
  const repaired = repairNode(schema) as JSONSchema;
  return withReachableDefinitions(repaired);
}

function repairNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(repairNode);
  if (typeof node !== "object" || node === null) return node;
  const schema = node as JSONSchema;
  if (typeof schema.$ref === "string" && schema.$ref.startsWith(DEFINITION_REF) && MESSAGE_CLASS.test(schema.$ref.slice(DEFINITION_REF.length))) {
    const { $ref: _ref, ...rest } = schema;
    return { ...MESSAGE_SCHEMA, ...rest };
  }
  const result: JSONSchema = {};
  for (const [key, child] of Object.entries(schema)) {
    result[key] = key === "definitions" || key === "properties" ? mapValues(child, repairNode) : repairNode(child);
  }
  return Array.isArray(result.allOf) ? withoutNonNullishIntersection(result) : result;
}

function mapValues(value: unknown, map: (child: unknown) => unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, map(child)]));
}

/** `allOf [{type: "object", properties: {}}, {type: "string"}]` (from `string & {}`) → the string part. */
function withoutNonNullishIntersection(schema: JSONSchema): JSONSchema {
  const parts = schema.allOf as unknown[];
  const hasPrimitive = parts.some((part) => PRIMITIVE_TYPES.has(String((part as JSONSchema | null)?.type)));
  if (!hasPrimitive) return schema;
  const kept = parts.filter((part) => !isEmptyObjectType(part));
  if (kept.length === parts.length) return schema;
  const { allOf: _allOf, ...rest } = schema;
  return kept.length === 1 ? { ...rest, ...(kept[0] as JSONSchema) } : { ...rest, allOf: kept };
}

function isEmptyObjectType(part: unknown): boolean {
  if (typeof part !== "object" || part === null) return false;
  const { type, properties, ...rest } = part as JSONSchema;
  const noProperties = properties === undefined || (typeof properties === "object" && properties !== null && Object.keys(properties).length === 0);
  return type === "object" && noProperties && Object.keys(rest).length === 0;
}
