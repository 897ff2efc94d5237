/**
 * JSON objects as stored in jsonb columns. Values are `any` rather than a recursive JSON type:
 * TypeORM's deep-partial types cannot expand a recursive type (TS2589), and every value we store
 * arrived as parsed JSON anyway.
 */
// `any` on purpose: see above.
export type JsonObject = { [key: string]: any };
export type JsonValue = unknown;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
