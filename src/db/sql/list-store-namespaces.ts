import { namespaceListingConditions, SqlParameters, type SqlClient, type StoreNamespaceListing } from "./store-sql.js";
import { runStatement } from "../run-statement.js";

/** Distinct namespaces of live items, in label order. Reads only. */
export async function listStoreNamespaces(client: SqlClient, listing: StoreNamespaceListing): Promise<string[][]> {
  const parameters = new SqlParameters();
  const where = namespaceListingConditions(listing, parameters);
  const namespace = listing.maxDepth !== undefined ? `i.namespace[1:${parameters.add(listing.maxDepth)}::int]` : "i.namespace";
  const { rows } = await runStatement<{ namespace: string[] }>(
    client,
    `SELECT DISTINCT ${namespace} AS namespace FROM store_items i WHERE ${where}
     ORDER BY namespace LIMIT ${parameters.add(listing.limit)} OFFSET ${parameters.add(listing.offset)}`,
    parameters.values,
  );
  return rows.map((row) => row.namespace);
}
