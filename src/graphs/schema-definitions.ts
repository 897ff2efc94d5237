import type { JSONSchema } from "./graph-schemas.js";

/** Where typescript-json-schema (draft-07) puts named types. */
export const DEFINITION_REF = "#/definitions/";

/** The schema with only the definitions reachable from its root (through other definitions too). */
export function withReachableDefinitions(schema: JSONSchema): JSONSchema {
  const definitions = schema.definitions as Record<string, unknown> | undefined;
  if (definitions === undefined) return schema;
  const { definitions: _all, ...root } = schema;
  const reachable = new Set<string>();
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) {
      pending.push(...node);
    } else if (typeof node === "object" && node !== null) {
      for (const [key, child] of Object.entries(node)) {
        if (key === "$ref" && typeof child === "string" && child.startsWith(DEFINITION_REF)) {
          const name = decodeURIComponent(child.slice(DEFINITION_REF.length));
          if (!reachable.has(name) && name in definitions) {
            reachable.add(name);
            pending.push(definitions[name]);
          }
        } else {
          pending.push(child);
        }
      }
    }
  }
  if (reachable.size === 0) return root;
  return { ...root, definitions: Object.fromEntries(Object.entries(definitions).filter(([name]) => reachable.has(name))) };
}
