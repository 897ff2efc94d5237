import { itemSearchConditions, SqlParameters, type SqlClient, type StoreItemSearch } from "./store-sql.js";
import { runStatement } from "../run-statement.js";

/**
 * How many items searchStoreItems would find without paging; `embeddedOnly` counts as a semantic
 * search does (items that have embeddings). Reads only.
 */
export async function countStoreItems(
  client: SqlClient,
  search: Pick<StoreItemSearch, "namespacePrefix" | "filter" | "access"> & { embeddedOnly: boolean },
): Promise<number> {
  const parameters = new SqlParameters();
  const embedded = search.embeddedOnly ? "AND EXISTS (SELECT 1 FROM store_vectors v WHERE v.namespace = i.namespace AND v.key = i.key)" : "";
  const { rows } = await runStatement<{ count: number }>(
    client,
    `SELECT count(*)::int AS count FROM store_items i WHERE ${itemSearchConditions(search, parameters)} ${embedded}`,
    parameters.values,
  );
  return rows[0]!.count;
}
