import type { AuthFilters } from "../../auth/auth-types.js";
import { ITEM_IS_LIVE, matchesAccessFilters, SqlParameters, type SqlClient } from "./store-sql.js";

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

/** Distinct namespaces of live items, in label order. Reads only. */
export async function listStoreNamespaces(client: SqlClient, listing: StoreNamespaceListing): Promise<string[][]> {
  const parameters = new SqlParameters();
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
  const namespace = listing.maxDepth !== undefined ? `i.namespace[1:${parameters.add(listing.maxDepth)}]` : "i.namespace";
  const { rows } = await client.query<{ namespace: string[] }>(
    `SELECT DISTINCT ${namespace} AS namespace FROM store_items i WHERE ${where.join(" AND ")}
     ORDER BY namespace LIMIT ${parameters.add(listing.limit)} OFFSET ${parameters.add(listing.offset)}`,
    parameters.values,
  );
  return rows.map((row) => row.namespace);
}
