import type pg from "pg";
import type { AuthFilters } from "../../domain/auth-filter.js";
import { authFiltersAsContainment } from "../../domain/auth-filter.js";
import type { StoreFilterCondition } from "../../domain/store.js";

/**
 * Shared pieces of the store statements (store items are read and written through the pool,
 * never TypeORM: graphs reach them through db/hangar-store.ts, outside any request).
 */
export type SqlClient = pg.Pool | pg.PoolClient;

/** Row shape of every statement that returns items. */
export interface StoreItemRow {
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  expires_at: Date | null;
  /** The encryption context its value was sealed with; null: stored in clear. */
  encryption_context: Record<string, unknown> | null;
  score?: number | null;
}

export const STORE_ITEM_COLUMNS = "i.namespace, i.key, i.value, i.created_at, i.updated_at, i.expires_at, i.encryption_context";

/** Numbered parameters of one statement: values only ever enter SQL through `add`. */
export class SqlParameters {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Expired items are invisible from the moment they expire, swept or not. */
export const ITEM_IS_LIVE = "(i.expires_at IS NULL OR i.expires_at > now())";

/** Rows (of items, alias i, or vectors) whose namespace starts with `prefix` ([] matches all). */
export function namespaceHasPrefix(prefix: string[], parameters: SqlParameters, alias = "i"): string {
  if (prefix.length === 0) return "true";
  return `${alias}.namespace[1:${prefix.length}] = ${parameters.add(prefix)}::text[]`;
}

/**
 * The auth handler's filters over the item's view `{...value, namespace, key}`:
 * `namespace: {$contains: x}` asks for the label(s) x in the namespace, a plain or `$eq`
 * namespace for the dot-joined namespace, `key` for the key, anything else for the value's own
 * fields (one jsonb containment, which the GIN index on value answers).
 */
export function matchesAccessFilters(filters: AuthFilters | undefined, parameters: SqlParameters): string {
  if (!filters) return "true";
  const conditions: string[] = [];
  const valueFilters: AuthFilters = {};
  for (const [field, condition] of Object.entries(filters)) {
    const equals = typeof condition === "string" ? condition : condition.$eq;
    const contains = typeof condition === "string" ? undefined : condition.$contains;
    if (field === "namespace") {
      if (equals !== undefined) conditions.push(`array_to_string(i.namespace, '.') = ${parameters.add(equals)}`);
      if (contains !== undefined) {
        conditions.push(`i.namespace @> ${parameters.add(Array.isArray(contains) ? contains : [contains])}::text[]`);
      }
    } else if (field === "key") {
      if (equals !== undefined) conditions.push(`i.key = ${parameters.add(equals)}`);
      // A key is a string, never an array: $contains cannot match it.
      if (contains !== undefined) conditions.push("false");
    } else {
      valueFilters[field] = condition;
    }
  }
  if (Object.keys(valueFilters).length > 0) {
    conditions.push(`i.value @> ${parameters.add(JSON.stringify(authFiltersAsContainment(valueFilters)))}::jsonb`);
  }
  return conditions.length > 0 ? conditions.join(" AND ") : "true";
}

const COMPARISON_SQL = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=" } as const;

/**
 * The `filter` of a search. Equality is jsonb equality (so 1 and 1.0 match, "1" does not);
 * ordering compares only values of the operand's JSON type (numbers as numbers, strings as
 * strings), never across types as jsonb's own ordering would.
 */
export function matchesValueFilter(conditions: StoreFilterCondition[], parameters: SqlParameters): string {
  const parts = conditions.map(({ path, operator, operand }) => {
    const field = `(i.value #> ${parameters.add(path)}::text[])`;
    const json = `${parameters.add(JSON.stringify(operand ?? null))}::jsonb`;
    if (operator === "$eq") return `${field} = ${json}`;
    if (operator === "$ne") return `${field} IS DISTINCT FROM ${json}`;
    return `(jsonb_typeof(${field}) = jsonb_typeof(${json}) AND ${field} ${COMPARISON_SQL[operator]} ${json})`;
  });
  return parts.length > 0 ? parts.join(" AND ") : "true";
}

export interface StoreNamespaceListing {
  /** Labels the namespace must start with; `*` matches any one label. */
  prefix: string[];
  /** Labels the namespace must end with; `*` matches any one label. */
  suffix: string[];
  /** Namespaces deeper than this are cut to their first `maxDepth` labels (then deduplicated). */
  maxDepth?: number;
  limit: number;
  offset: number;
  access?: AuthFilters;
}

/** The WHERE of a namespace listing: live items the caller may see, matching prefix and suffix. */
export function namespaceListingConditions(listing: Omit<StoreNamespaceListing, "limit" | "offset">, parameters: SqlParameters): string {
  const where = [ITEM_IS_LIVE, matchesAccessFilters(listing.access, parameters)];
  const patternLength = Math.max(listing.prefix.length, listing.suffix.length);
  if (patternLength > 0) where.push(`cardinality(i.namespace) >= ${parameters.add(patternLength)}`);
  listing.prefix.forEach((label, index) => {
    if (label !== "*") where.push(`i.namespace[${index + 1}] = ${parameters.add(label)}`);
  });
  listing.suffix.forEach((label, index) => {
    const fromEnd = listing.suffix.length - index - 1;
    if (label !== "*") where.push(`i.namespace[cardinality(i.namespace) - ${fromEnd}] = ${parameters.add(label)}`);
  });
  return where.join(" AND ");
}

export interface StoreItemSearch {
  namespacePrefix: string[];
  filter: StoreFilterCondition[];
  limit: number;
  offset: number;
  /** The query's embedding: results carry a cosine similarity score and rank by it. */
  queryVector?: number[];
  refreshTtl: boolean;
  access?: AuthFilters;
}

/** The WHERE of a search: live items under the prefix that match the filter and the caller's access. */
export function itemSearchConditions(search: Pick<StoreItemSearch, "namespacePrefix" | "filter" | "access">, parameters: SqlParameters): string {
  return [
    namespaceHasPrefix(search.namespacePrefix, parameters),
    ITEM_IS_LIVE,
    matchesValueFilter(search.filter, parameters),
    matchesAccessFilters(search.access, parameters),
  ].join(" AND ");
}

/** Search results order: best score first (when scored), then most recently updated; never ties. */
const SEARCH_ORDER = ["score DESC NULLS LAST", "updated_at DESC", "namespace", "key"];

/**
 * The tail every search statement shares: `page` is a query returning STORE_ITEM_COLUMNS plus
 * `score` for the matching items; this pages it in SEARCH_ORDER and, when the `refresh`
 * parameter is true, restarts the TTL of exactly the returned items (locking only their rows).
 */
export function pageWithTtlRefresh(matching: string, search: Pick<StoreItemSearch, "limit" | "offset" | "refreshTtl">, parameters: SqlParameters): string {
  return `WITH page AS (
       SELECT * FROM (${matching}) matching
       ORDER BY ${SEARCH_ORDER.join(", ")} LIMIT ${parameters.add(search.limit)} OFFSET ${parameters.add(search.offset)}
     ), refreshed AS (
       UPDATE store_items i SET expires_at = now() + i.ttl_minutes * interval '1 minute'
       FROM page
       WHERE ${parameters.add(search.refreshTtl)}::boolean AND i.ttl_minutes IS NOT NULL
         AND i.namespace = page.namespace AND i.key = page.key
       RETURNING i.namespace, i.key, i.expires_at
     )
     SELECT page.namespace, page.key, page.value, page.created_at, page.updated_at, page.score, page.encryption_context,
            coalesce(refreshed.expires_at, page.expires_at) AS expires_at
     FROM page LEFT JOIN refreshed ON refreshed.namespace = page.namespace AND refreshed.key = page.key
     ORDER BY ${SEARCH_ORDER.map((term) => `page.${term}`).join(", ")}`;
}

export function toStoreItem(row: StoreItemRow) {
  return {
    namespace: row.namespace,
    key: row.key,
    value: row.value,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    ...(row.score !== undefined ? { score: row.score === null ? null : Number(row.score) } : {}),
  };
}
