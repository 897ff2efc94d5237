/**
 * Authorization filters as custom auth handlers return them (see auth/), and how they are
 * applied: pure, so storage (db/) and services share one reading of them.
 */

/**
 * A filter a handler returns: every key must match the resource's metadata (store items: the
 * item's value plus `namespace` and `key`). A plain string means `$eq`; `$contains` asks for
 * array membership (all of them, for a list).
 */
export type AuthFilterCondition = string | { $eq?: string; $contains?: string | string[] };
export type AuthFilters = Record<string, AuthFilterCondition>;

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
