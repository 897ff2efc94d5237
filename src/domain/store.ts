import { InvalidInputError } from "./errors.js";
import { MAX_INT4, MAX_NAMESPACE_BYTES, MAX_NAMESPACE_LABELS, MAX_STORE_KEY_BYTES, validateTextBytes } from "./input-bounds.js";
import { isJsonObject, type JsonObject } from "./json.js";

/** An item of the Store (LangGraph's long-term memory). `score` only in semantic search results. */
export interface StoreItem {
  namespace: string[];
  key: string;
  value: JsonObject;
  createdAt: Date;
  updatedAt: Date;
  /** When the item expires (null: never). */
  expiresAt: Date | null;
  score?: number | null;
}

/** The comparison operators of LangGraph's store `filter` (a plain value means `$eq`). */
export const STORE_FILTER_OPERATORS = ["$eq", "$ne", "$gt", "$gte", "$lt", "$lte"] as const;
export type StoreFilterOperator = (typeof STORE_FILTER_OPERATORS)[number];

/** `filter` normalized: one condition per operator and field path. */
export interface StoreFilterCondition {
  /** The field's path in the value, split on dots (`{"a.b": 1}` looks at value.a.b). */
  path: string[];
  operator: StoreFilterOperator;
  operand: unknown;
}

/**
 * Namespace rules of LangGraph Platform: at least one label, no empty label, no dot (the REST
 * API joins labels with dots), and the `langgraph` root is reserved for the platform itself.
 * `allowEmpty` is for search and listing prefixes, where [] means everything.
 */
export function validateNamespace(namespace: unknown, field: string, options: { allowEmpty?: boolean } = {}): string[] {
  if (!Array.isArray(namespace)) throw new InvalidInputError(`${field} must be an array of strings`);
  if (namespace.length === 0 && !options.allowEmpty) throw new InvalidInputError(`${field} must not be empty`);
  if (namespace.length > MAX_NAMESPACE_LABELS) throw new InvalidInputError(`${field} must have at most ${MAX_NAMESPACE_LABELS} labels, got ${namespace.length}`);
  namespace.forEach((label: unknown, index) => {
    if (typeof label !== "string") throw new InvalidInputError(`${field}[${index}] must be a string`);
    if (label === "") throw new InvalidInputError(`${field}[${index}] must not be an empty label`);
    validateTextBytes(label, `${field}[${index}]`, MAX_NAMESPACE_BYTES);
    if (label.includes(".")) throw new InvalidInputError(`${field}[${index}] ("${label}") must not contain a dot`);
  });
  // The labels as the REST API joins them: the whole namespace's bound (see input-bounds.ts).
  validateTextBytes(namespace.join("."), field, MAX_NAMESPACE_BYTES);
  if (typeof namespace[0] === "string" && namespace[0].startsWith("langgraph") && !options.allowEmpty) {
    throw new InvalidInputError(`${field}[0] ("${namespace[0]}") must not start with "langgraph": that root is reserved`);
  }
  return namespace as string[];
}

/** Namespace patterns of list_namespaces: like namespaces, but `*` matches any one label. */
export function validateNamespacePattern(pattern: unknown, field: string): string[] {
  return validateNamespace(pattern, field, { allowEmpty: true });
}

export function validateStoreKey(key: unknown, field = "key"): string {
  if (typeof key !== "string") throw new InvalidInputError(`${field} is required and must be a string`);
  if (key === "") throw new InvalidInputError(`${field} must not be empty`);
  return validateTextBytes(key, field, MAX_STORE_KEY_BYTES);
}

export function validateStoreValue(value: unknown, field = "value"): JsonObject {
  if (!isJsonObject(value)) throw new InvalidInputError(`${field} must be a JSON object`);
  return value;
}

/** A page bound: a whole number from 0 to PostgreSQL's integer maximum (a zero limit is an empty page). */
export function validatePageBound(value: unknown, field: string, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_INT4) {
    throw new InvalidInputError(`${field} must be a whole number from 0 to ${MAX_INT4}`);
  }
  return value;
}

/** Per-put indexing: null/undefined (the deployment's fields), false (not indexed), or field paths. */
export function validateIndexFields(value: unknown, field = "index"): false | string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === false) return false;
  if (Array.isArray(value) && value.every((path) => typeof path === "string" && path !== "")) return value as string[];
  throw new InvalidInputError(`${field} must be false, null or a list of field paths`);
}

/**
 * `filter` as LangGraph's stores read it: `{field: value}` (equality) or
 * `{field: {$op: value, ...}}` with the operators of STORE_FILTER_OPERATORS.
 */
export function parseStoreFilter(filter: unknown, field = "filter"): StoreFilterCondition[] {
  if (filter === undefined || filter === null) return [];
  if (!isJsonObject(filter)) throw new InvalidInputError(`${field} must be a JSON object`);
  const conditions: StoreFilterCondition[] = [];
  for (const [name, condition] of Object.entries(filter)) {
    const path = name.split(".");
    if (path.some((part) => part === "")) throw new InvalidInputError(`${field}: "${name}" is not a field path`);
    const operators = isJsonObject(condition) ? Object.keys(condition) : [];
    if (isJsonObject(condition) && operators.length > 0 && operators.every((key) => key.startsWith("$"))) {
      for (const operator of operators) {
        if (!(STORE_FILTER_OPERATORS as readonly string[]).includes(operator)) {
          throw new InvalidInputError(`${field}.${name}: unknown operator ${operator} (use ${STORE_FILTER_OPERATORS.join(", ")})`);
        }
        conditions.push({ path, operator: operator as StoreFilterOperator, operand: condition[operator] });
      }
    } else {
      conditions.push({ path, operator: "$eq", operand: condition });
    }
  }
  return conditions;
}
