import { namespaceListingConditions, SqlParameters, type SqlClient, type StoreNamespaceListing } from "./store-sql.js";
import { runStatement } from "../run-statement.js";

/** How many namespaces listStoreNamespaces would list without paging. Reads only. */
export async function countStoreNamespaces(client: SqlClient, listing: Omit<StoreNamespaceListing, "limit" | "offset">): Promise<number> {
  const parameters = new SqlParameters();
  const where = namespaceListingConditions(listing, parameters);
  const namespace = listing.maxDepth !== undefined ? `i.namespace[1:${parameters.add(listing.maxDepth)}::int]` : "i.namespace";
  const { rows } = await runStatement<{ count: number }>(
    client,
    `SELECT count(DISTINCT ${namespace})::int AS count FROM store_items i WHERE ${where}`,
    parameters.values,
  );
  return rows[0]!.count;
}
