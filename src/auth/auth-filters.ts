import { AuthModuleError } from "./handler-errors.js";
import type { AuthFilterCondition, AuthFilters } from "../domain/auth-filter.js";

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
