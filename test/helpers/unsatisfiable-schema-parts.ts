/**
 * Finds the parts of a JSON Schema that no value can satisfy (the kind a careless conversion from
 * TypeScript types produces: `string & {}` became `allOf [{type: "object"}, {type: "string"}]`).
 * A validator accepts such a schema without complaint and then refuses every value, so tests
 * look for them explicitly. Returns one line per problem, with its JSON pointer.
 */
export function findUnsatisfiableParts(schema: unknown): string[] {
  const problems: string[] = [];
  visit(schema, "#", schema, problems);
  return problems;
}

type Schema = Record<string, unknown>;

const JSON_TYPES: readonly string[] = ["null", "boolean", "object", "array", "number", "string"];

function isSchemaObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function visit(node: unknown, pointer: string, root: unknown, problems: string[]): void {
  if (Array.isArray(node)) {
    node.forEach((child, index) => visit(child, `${pointer}/${index}`, root, problems));
    return;
  }
  if (!isSchemaObject(node)) return;
  checkNode(node, pointer, root, problems);
  for (const [key, child] of Object.entries(node)) {
    // Values of these keywords are data, not schemas.
    if (key === "enum" || key === "const" || key === "default" || key === "examples" || key === "required") continue;
    visit(child, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, root, problems);
  }
}

function checkNode(schema: Schema, pointer: string, root: unknown, problems: string[]): void {
  if (typeof schema.$ref === "string" && resolveRef(schema.$ref, root) === undefined) {
    problems.push(`${pointer}: $ref ${schema.$ref} points nowhere`);
  }
  for (const key of ["allOf", "anyOf", "oneOf", "enum", "type"] as const) {
    if (Array.isArray(schema[key]) && (schema[key] as unknown[]).length === 0) problems.push(`${pointer}: empty ${key}`);
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0 && options.every((option) => typesOf(option, root, 0)?.size === 0)) {
      problems.push(`${pointer}: every ${key} option is unsatisfiable`);
    }
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((part) => typesOf(part, root, 0));
    const common = intersect(parts);
    if (common !== null && common.size === 0) {
      const named = parts.map((types) => (types === null ? "any" : [...types].join("|") || "nothing")).join(", ");
      problems.push(`${pointer}: allOf of incompatible types (${named})`);
    }
  }
  const own = ownTypes(schema);
  if (own !== null) {
    const values = "const" in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : [];
    for (const value of values) {
      if (!own.has(jsonTypeOf(value))) problems.push(`${pointer}: ${JSON.stringify(value)} is not of type ${[...own].join("|")}`);
    }
  }
  if (typeof schema.minItems === "number" && typeof schema.maxItems === "number" && schema.minItems > schema.maxItems) {
    problems.push(`${pointer}: minItems > maxItems`);
  }
  if (typeof schema.minimum === "number" && typeof schema.maximum === "number" && schema.minimum > schema.maximum) {
    problems.push(`${pointer}: minimum > maximum`);
  }
  if (isSchemaObject(schema.properties) && Array.isArray(schema.required)) {
    for (const name of schema.required) {
      if ((schema.properties as Schema)[String(name)] === false) problems.push(`${pointer}: required property ${String(name)} is false`);
    }
  }
}

/** JSON types the schema admits (null: any), through $ref, type, const/enum, allOf/anyOf/oneOf. */
function typesOf(schema: unknown, root: unknown, depth: number): Set<string> | null {
  if (schema === false) return new Set();
  if (!isSchemaObject(schema) || depth > 20) return null;
  const parts: Array<Set<string> | null> = [ownTypes(schema)];
  if ("const" in schema) parts.push(new Set([jsonTypeOf(schema.const)]));
  if (Array.isArray(schema.enum)) parts.push(new Set(schema.enum.map(jsonTypeOf)));
  if (typeof schema.$ref === "string") parts.push(typesOf(resolveRef(schema.$ref, root), root, depth + 1));
  if (Array.isArray(schema.allOf)) parts.push(intersect(schema.allOf.map((part) => typesOf(part, root, depth + 1))));
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (!Array.isArray(options)) continue;
    const each = options.map((option) => typesOf(option, root, depth + 1));
    parts.push(each.some((types) => types === null) ? null : new Set(each.flatMap((types) => [...types!])));
  }
  return intersect(parts);
}

function ownTypes(schema: Schema): Set<string> | null {
  if (schema.type === undefined) return null;
  const declared = (Array.isArray(schema.type) ? schema.type : [schema.type]).map(String);
  // integer is a kind of number: both stand for "number" here.
  const types = new Set(declared.map((type) => (type === "integer" ? "number" : type)));
  if (schema.nullable === true) types.add("null");
  return new Set([...types].filter((type) => JSON_TYPES.includes(type)));
}

function intersect(sets: Array<Set<string> | null>): Set<string> | null {
  const known = sets.filter((set): set is Set<string> => set !== null);
  if (known.length === 0) return null;
  return new Set([...known[0]!].filter((type) => known.every((set) => set.has(type))));
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "number" || typeof value === "bigint" ? "number" : typeof value;
}

function resolveRef(ref: string, root: unknown): unknown {
  if (!ref.startsWith("#")) return null;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isSchemaObject(node) || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}
