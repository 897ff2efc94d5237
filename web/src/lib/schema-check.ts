import { isDeepEqual, isPlainObject } from "./json-diff.js";

/**
 * A client-side check of a value against a graph's JSON Schema (as the server prints it from the
 * graph's zod or annotation schema), for early, precise feedback while editing. It covers the
 * keywords such schemas use (type, required, properties, additionalProperties, items, enum,
 * const, bounds, lengths, pattern, anyOf/oneOf/allOf, local $ref) and ignores the rest: the
 * graph itself stays the judge at run time, so being lenient here only delays an error, while
 * being strict could block a valid configuration.
 */

export type JsonSchema = Record<string, unknown>;

export interface SchemaIssue {
  /** Where: `model_name`, `tools[0].name`; "" for the value itself. */
  path: string;
  message: string;
}

export function checkAgainstSchema(value: unknown, schema: JsonSchema): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  checkNode(value, schema, "", schema, issues, 0);
  return issues;
}

// $ref cycles (recursive schemas) stop here instead of recursing forever.
const MAX_DEPTH = 32;

function checkNode(value: unknown, schema: unknown, path: string, root: JsonSchema, issues: SchemaIssue[], depth: number): void {
  if (depth > MAX_DEPTH || !isPlainObject(schema)) return;
  const resolved = typeof schema.$ref === "string" ? resolveRef(schema.$ref, root) : schema;
  if (!resolved) return;
  if (resolved !== schema) return checkNode(value, resolved, path, root, issues, depth + 1);

  const typeIssue = checkType(value, schema);
  if (typeIssue) {
    issues.push({ path, message: typeIssue });
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => isDeepEqual(option, value))) {
    issues.push({ path, message: `must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(", ")}` });
  }
  if ("const" in schema && !isDeepEqual(schema.const, value)) {
    issues.push({ path, message: `must be ${JSON.stringify(schema.const)}` });
  }
  if (typeof value === "number") checkNumber(value, schema, path, issues);
  if (typeof value === "string") checkString(value, schema, path, issues);
  if (Array.isArray(value)) checkArray(value, schema, path, root, issues, depth);
  if (isPlainObject(value)) checkObject(value, schema, path, root, issues, depth);
  checkCombinators(value, schema, path, root, issues, depth);
}

function checkType(value: unknown, schema: JsonSchema): string | null {
  const declared = schema.type;
  if (declared === undefined) return null;
  const allowed = Array.isArray(declared) ? declared.map(String) : [String(declared)];
  if (schema.nullable === true) allowed.push("null");
  if (allowed.some((type) => matchesType(value, type))) return null;
  return `must be ${allowed.map(describeType).join(" or ")}, not ${describeValue(value)}`;
}

function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isPlainObject(value);
    default:
      return true;
  }
}

function describeType(type: string): string {
  return type === "array" || type === "object" || type === "integer" ? `an ${type}` : `a ${type}`;
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number" && Number.isInteger(value)) return `the number ${value}`;
  return typeof value === "object" ? "an object" : `${typeof value === "string" ? "a string" : `a ${typeof value}`}`;
}

function checkNumber(value: number, schema: JsonSchema, path: string, issues: SchemaIssue[]): void {
  if (typeof schema.minimum === "number" && value < schema.minimum) issues.push({ path, message: `must be ≥ ${schema.minimum}` });
  if (typeof schema.maximum === "number" && value > schema.maximum) issues.push({ path, message: `must be ≤ ${schema.maximum}` });
  if (typeof schema.exclusiveMinimum === "number" && value <= schema.exclusiveMinimum) {
    issues.push({ path, message: `must be > ${schema.exclusiveMinimum}` });
  }
  if (typeof schema.exclusiveMaximum === "number" && value >= schema.exclusiveMaximum) {
    issues.push({ path, message: `must be < ${schema.exclusiveMaximum}` });
  }
}

function checkString(value: string, schema: JsonSchema, path: string, issues: SchemaIssue[]): void {
  if (typeof schema.minLength === "number" && value.length < schema.minLength) {
    issues.push({ path, message: `must have at least ${schema.minLength} characters` });
  }
  if (typeof schema.maxLength === "number" && value.length > schema.maxLength) {
    issues.push({ path, message: `must have at most ${schema.maxLength} characters` });
  }
  if (typeof schema.pattern === "string") {
    let pattern: RegExp | null = null;
    try {
      pattern = new RegExp(schema.pattern, "u");
    } catch {
      // A pattern JavaScript cannot compile is the graph's to enforce.
    }
    if (pattern && !pattern.test(value)) issues.push({ path, message: `must match ${schema.pattern}` });
  }
}

function checkArray(value: unknown[], schema: JsonSchema, path: string, root: JsonSchema, issues: SchemaIssue[], depth: number): void {
  if (typeof schema.minItems === "number" && value.length < schema.minItems) {
    issues.push({ path, message: `must have at least ${schema.minItems} items` });
  }
  if (typeof schema.maxItems === "number" && value.length > schema.maxItems) {
    issues.push({ path, message: `must have at most ${schema.maxItems} items` });
  }
  if (isPlainObject(schema.items)) {
    value.forEach((item, index) => checkNode(item, schema.items, `${path}[${index}]`, root, issues, depth + 1));
  }
}

function checkObject(
  value: Record<string, unknown>,
  schema: JsonSchema,
  path: string,
  root: JsonSchema,
  issues: SchemaIssue[],
  depth: number,
): void {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  if (Array.isArray(schema.required)) {
    for (const name of schema.required.map(String)) {
      // zod's .default() lists a field as required (it always is in the parsed output), yet the
      // graph fills it in when it is missing: for a person editing, it is optional.
      const property = properties[name];
      const hasDefault = isPlainObject(property) && "default" in property;
      if (!(name in value) && !hasDefault) issues.push({ path: joinPath(path, name), message: "is required" });
    }
  }
  for (const [name, item] of Object.entries(value)) {
    if (name in properties) {
      checkNode(item, properties[name], joinPath(path, name), root, issues, depth + 1);
    } else if (schema.additionalProperties === false) {
      const known = Object.keys(properties);
      const hint = known.length > 0 ? ` (known: ${known.join(", ")})` : "";
      issues.push({ path: joinPath(path, name), message: `is not allowed${hint}` });
    } else if (isPlainObject(schema.additionalProperties)) {
      checkNode(item, schema.additionalProperties, joinPath(path, name), root, issues, depth + 1);
    }
  }
}

function checkCombinators(value: unknown, schema: JsonSchema, path: string, root: JsonSchema, issues: SchemaIssue[], depth: number): void {
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) checkNode(value, part, path, root, issues, depth + 1);
  }
  // oneOf is checked like anyOf: telling "matches two" apart adds noise, not help, while editing.
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (!Array.isArray(options) || options.length === 0) continue;
    const matches = options.some((option) => {
      const optionIssues: SchemaIssue[] = [];
      checkNode(value, option, path, root, optionIssues, depth + 1);
      return optionIssues.length === 0;
    });
    if (!matches) issues.push({ path, message: "matches none of the allowed shapes" });
  }
}

/** Local references only (`#/$defs/Tool`, `#/definitions/Tool`); others are not checked. */
function resolveRef(ref: string, root: JsonSchema): JsonSchema | null {
  if (!ref.startsWith("#")) return null;
  let node: unknown = root;
  for (const part of ref.slice(1).split("/").filter(Boolean)) {
    if (!isPlainObject(node)) return null;
    node = node[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return isPlainObject(node) ? node : null;
}

function joinPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** The schema's property defaults as a starting value for a new assistant's context. */
export function defaultsFromSchema(schema: JsonSchema | null | undefined): Record<string, unknown> {
  if (!schema || !isPlainObject(schema.properties)) return {};
  const defaults: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    if (isPlainObject(property) && "default" in property) defaults[name] = property.default;
  }
  return defaults;
}
