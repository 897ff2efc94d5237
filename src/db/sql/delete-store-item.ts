import type { AuthFilters } from "../../domain/auth-filter.js";
import { matchesAccessFilters, SqlParameters, type SqlClient } from "./store-sql.js";
import { runStatement } from "../run-statement.js";

/** Deletes the item (with its embeddings, by cascade) when `access` matches it; locks that row. */
export async function deleteStoreItem(
  client: SqlClient,
  item: { namespace: string[]; key: string; access?: AuthFilters },
): Promise<boolean> {
  const parameters = new SqlParameters();
  const namespace = parameters.add(item.namespace);
  const key = parameters.add(item.key);
  const access = matchesAccessFilters(item.access, parameters);
  const { affected } = await runStatement(
    client,
    `DELETE FROM store_items i WHERE i.namespace = ${namespace}::text[] AND i.key = ${key} AND ${access}`,
    parameters.values,
  );
  return affected > 0;
}
