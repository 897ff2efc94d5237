import {
  itemSearchConditions,
  pageWithTtlRefresh,
  SqlParameters,
  STORE_ITEM_COLUMNS,
  type SqlClient,
  type StoreItemRow,
  type StoreItemSearch,
} from "./store-sql.js";
import { runStatement } from "../run-statement.js";

/**
 * A page of live items under a namespace prefix. Without a query vector, most recently updated
 * first. With one, only items that have embeddings, ranked by the best cosine similarity of any
 * of their indexed fields: the exact scan, which compares every matching item's vectors (float
 * arrays, no extension needed; what a PostgreSQL without pgvector can do). Stored and query
 * vectors have unit length (db/hangar-store.ts), so the dot product is the cosine. Ties break on
 * namespace and key, so pages do not overlap. With `refreshTtl`, the returned items' TTLs
 * restart (only their rows are locked).
 */
export async function searchStoreItems(client: SqlClient, search: StoreItemSearch): Promise<StoreItemRow[]> {
  const parameters = new SqlParameters();
  const where = itemSearchConditions(search, parameters);
  const matching = search.queryVector
    ? `SELECT * FROM (
         SELECT ${STORE_ITEM_COLUMNS},
           (SELECT max((SELECT sum(a * b) FROM unnest(v.embedding, ${parameters.add(search.queryVector)}::real[]) AS t(a, b)))
            FROM store_vectors v
            WHERE v.namespace = i.namespace AND v.key = i.key AND cardinality(v.embedding) = ${parameters.add(search.queryVector.length)}::int) AS score
         FROM store_items i WHERE ${where}
       ) scored WHERE score IS NOT NULL`
    : `SELECT ${STORE_ITEM_COLUMNS}, NULL::float8 AS score FROM store_items i WHERE ${where}`;
  const { rows } = await runStatement<StoreItemRow>(client, pageWithTtlRefresh(matching, search, parameters), parameters.values);
  return rows;
}
