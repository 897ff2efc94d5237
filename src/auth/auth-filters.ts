import { AuthModuleError } from "./handler-errors.js";
import type { AuthFilterCondition, AuthFilters } from "./auth-types.js";

/**
 * Checks what a handler returned is a filter Hangar can apply: an object whose values are strings
 * or `{$eq: string}` / `{$contains: string | string[]}`. Anything else is the handler's bug, and
 * a silently unfiltered query would leak data, so it fails the call (500 naming the handler).
 */
export function validateAuthFilters(result: unknown, where: string): AuthFilters {
  if (typeof result !== "object" || result === null || Array.isArray(result)) {
    throw new AuthModuleError(`${where} returned ${describe(result)}; expected a filter object, true, false, null or nothing`);
  }
  for (const [field, condition] of Object.entries(result)) {
    if (!isCondition(condition)) {
      throw new AuthModuleError(
        `${where} returned an unsupported filter for "${field}": use a string, {"$eq": string} or {"$contains": string | string[]}`,
      );
    }
  }
  return result as AuthFilters;
}

function isCondition(condition: unknown): condition is AuthFilterCondition {
  if (typeof condition === "string") return true;
  if (typeof condition !== "object" || condition === null || Array.isArray(condition)) return false;
  const entries = Object.entries(condition);
  if (entries.length !== 1) return false;
  const [operator, operand] = entries[0];
  if (operator === "$eq") return typeof operand === "string";
  if (operator === "$contains") {
    return typeof operand === "string" || (Array.isArray(operand) && operand.every((item) => typeof item === "string"));
  }
  return false;
}

function describe(value: unknown): string {
  return Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`;
}

/**
 * The filters as one JSONB containment document: `{owner: "a"}` and `{owner: {$eq: "a"}}` ask
 * for `metadata @> {"owner": "a"}`, `{tags: {$contains: ["x", "y"]}}` for
 * `metadata @> {"tags": ["x", "y"]}` (an array containing both). One `@>` keeps the check in SQL
 * and lets the GIN index on metadata answer it. A `$contains` on a value that is not an array
 * does not match, as in LangGraph.
 */
export function authFiltersAsContainment(filters: AuthFilters): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  for (const [field, condition] of Object.entries(filters)) {
    if (typeof condition === "string") document[field] = condition;
    else if (condition.$eq !== undefined) document[field] = condition.$eq;
    else if (condition.$contains !== undefined) {
      document[field] = Array.isArray(condition.$contains) ? condition.$contains : [condition.$contains];
    }
  }
  return document;
}

/** The same test in memory, for values already loaded (stream events, in-process shortcuts). */
export function matchesAuthFilters(metadata: Record<string, unknown> | null | undefined, filters: AuthFilters | undefined): boolean {
  if (!filters) return true;
  for (const [field, condition] of Object.entries(filters)) {
    const actual = metadata?.[field];
    if (typeof condition === "string" || condition.$eq !== undefined) {
      if (actual !== (typeof condition === "string" ? condition : condition.$eq)) return false;
      continue;
    }
    const wanted = Array.isArray(condition.$contains) ? condition.$contains : [condition.$contains];
    if (!Array.isArray(actual) || !wanted.every((item) => actual.includes(item))) return false;
  }
  return true;
}
