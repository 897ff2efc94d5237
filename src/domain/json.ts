/**
 * JSON objects as stored in jsonb columns and as parsed from request bodies. Values are `unknown`:
 * code that reads a value narrows it first (a zod schema at the edge, or the guards below).
 * (A recursive JSON type is not used: TypeORM's deep-partial types cannot expand one, TS2589.)
 */
export type JsonObject = Record<string, unknown>;
export type JsonValue = unknown;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value when it is a JSON object, else an empty one (for spreading a key that may hold anything). */
export function jsonObjectOrEmpty(value: unknown): JsonObject {
  return isJsonObject(value) ? value : {};
}
