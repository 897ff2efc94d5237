import {
  itemSearchConditions,
  SqlParameters,
  STORE_ITEM_COLUMNS,
  type SqlClient,
  type StoreItemRow,
  type StoreItemSearch,
} from "./store-sql.js";

/**
 * A page of live items under a namespace prefix. Without a query vector, most recently updated
 * first; with one, by the best cosine similarity of any of the item's indexed fields (items
 * without embeddings last, score null). This is the exact scan: every matching item's vectors
 * are compared, which is what a PostgreSQL without pgvector can do. Ties break on namespace and
 * key, so pages do not overlap. With `refreshTtl`, the returned items' TTLs restart (only their
 * rows are locked).
 */
export async function searchStoreItems(client: SqlClient, search: StoreItemSearch): Promise<StoreItemRow[]> {
  const parameters = new SqlParameters();
  const where = itemSearchConditions(search, parameters);
  const score = search.queryVector
    ? `(SELECT max((SELECT sum(a * b) / nullif(sqrt(sum(a * a)) * sqrt(sum(b * b)), 0)
                    FROM unnest(v.embedding, ${parameters.add(search.queryVector)}::real[]) AS t(a, b)))
        FROM store_vectors v WHERE v.namespace = i.namespace AND v.key = i.key)`
    : "NULL::float8";
  const order = "score DESC NULLS LAST, updated_at DESC, namespace, key";
  const limit = parameters.add(search.limit);
  const offset = parameters.add(search.offset);
  const refresh = parameters.add(search.refreshTtl);
  const { rows } = await client.query<StoreItemRow>(
    `WITH page AS (
       SELECT * FROM (SELECT ${STORE_ITEM_COLUMNS}, ${score} AS score FROM store_items i WHERE ${where}) matching
       ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}
     ), refreshed AS (
       UPDATE store_items i SET expires_at = now() + i.ttl_minutes * interval '1 minute'
       FROM page
       WHERE ${refresh}::boolean AND i.ttl_minutes IS NOT NULL AND i.namespace = page.namespace AND i.key = page.key
       RETURNING i.namespace, i.key, i.expires_at
     )
     SELECT page.namespace, page.key, page.value, page.created_at, page.updated_at, page.score,
            coalesce(refreshed.expires_at, page.expires_at) AS expires_at
     FROM page LEFT JOIN refreshed ON refreshed.namespace = page.namespace AND refreshed.key = page.key
     ORDER BY page.${order.replaceAll(", ", ", page.")}`,
    parameters.values,
  );
  return rows;
}
