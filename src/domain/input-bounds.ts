import { InvalidInputError } from "./errors.js";

/**
 * Bounds on what callers send, set by what PostgreSQL (and the code after the edge) can take, so
 * a value past them is INVALID_INPUT naming the field before any statement runs, on every
 * transport alike (REST schemas and services both read these constants).
 */

/**
 * How deeply JSON input (bodies, GraphQL variables and documents, JSON-RPC params) may nest
 * objects and arrays. Real graph states nest far less: a LangChain message list with tool calls
 * and content blocks is ~8 levels, a checkpoint wraps that in ~4 more. Past ~5,000 levels the
 * recursive code after the edge overflows the stack (domain/json-depth.ts).
 */
export const MAX_JSON_DEPTH = 100;

/** PostgreSQL's `integer`: page offsets, depths and counts beyond it fail in SQL casts. */
export const MAX_INT4 = 2_147_483_647;

/**
 * A TTL (store items, threads) in minutes: 1,000 years. Beyond PostgreSQL's timestamp range
 * (year 294276) `now() + ttl` fails, and a JavaScript Date turns invalid far sooner (~1e11 minutes
 * from now); null already means "never expires".
 */
export const MAX_TTL_MINUTES = 1_000 * 525_960;

/**
 * A store item is keyed by (namespace, key) in a B-tree primary key, whose entries must fit in a
 * third of a page (2,704 bytes) after compression; random text does not compress. These bounds
 * keep the worst case (32 labels with their array headers plus the key) under ~2,400 bytes.
 */
export const MAX_STORE_KEY_BYTES = 1_024;
export const MAX_NAMESPACE_BYTES = 1_024;
export const MAX_NAMESPACE_LABELS = 32;

/**
 * Other text kept in a B-tree index (a trace run's dotted_order, a model name): the same
 * third-of-a-page limit, with room for the other columns of the index. 2,048 bytes of
 * dotted_order is ~32 levels of nested runs (63 bytes a level).
 */
export const MAX_INDEXED_TEXT_BYTES = 2_048;

/** A whole number in [min, max], or INVALID_INPUT naming the field and the bounds. */
export function validateWholeNumber(value: unknown, field: string, bounds: { min: number; max: number }): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < bounds.min || value > bounds.max) {
    throw new InvalidInputError(`${field} must be a whole number from ${bounds.min} to ${bounds.max}, got ${describeValue(value)}`);
  }
  return value;
}

/** A TTL in minutes: positive and at most MAX_TTL_MINUTES; undefined and null pass through. */
export function validateTtlMinutes(value: unknown, field = "ttl"): number | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > MAX_TTL_MINUTES) {
    throw new InvalidInputError(`${field} must be a positive number of minutes up to ${MAX_TTL_MINUTES} (1,000 years) or null, got ${describeValue(value)}`);
  }
  return value;
}

/** Text at most maxBytes long in UTF-8, or INVALID_INPUT naming the field. */
export function validateTextBytes(text: string, field: string, maxBytes: number): string {
  // A character is at most 4 bytes: short text needs no count.
  if (text.length * 3 > maxBytes && Buffer.byteLength(text, "utf8") > maxBytes) {
    throw new InvalidInputError(`${field} must be at most ${maxBytes} bytes (UTF-8), got ${Buffer.byteLength(text, "utf8")}`);
  }
  return text;
}

function describeValue(value: unknown): string {
  if (typeof value === "string") return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  return Array.isArray(value) ? "an array" : typeof value;
}
