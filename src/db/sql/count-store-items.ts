import { itemSearchConditions, SqlParameters, type SqlClient, type StoreItemSearch } from "./store-sql.js";

/** How many items searchStoreItems would find without paging. Reads only. */
export async function countStoreItems(
  client: SqlClient,
  search: Pick<StoreItemSearch, "namespacePrefix" | "filter" | "access">,
): Promise<number> {
  const parameters = new SqlParameters();
  const { rows } = await client.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM store_items i WHERE ${itemSearchConditions(search, parameters)}`,
    parameters.values,
  );
  return rows[0]!.count;
}
