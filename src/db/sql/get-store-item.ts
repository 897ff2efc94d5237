import type { AuthFilters } from "../../domain/auth-filter.js";
import { ITEM_IS_LIVE, matchesAccessFilters, SqlParameters, STORE_ITEM_COLUMNS, type SqlClient, type StoreItemRow } from "./store-sql.js";
import { runStatement } from "../run-statement.js";

/**
 * One live item that `access` matches, or nothing. With `refreshTtl`, an item that has a TTL
 * expires its TTL from now (the same statement: the row is locked only when it is refreshed).
 */
export async function getStoreItem(
  client: SqlClient,
  item: { namespace: string[]; key: string; refreshTtl: boolean; access?: AuthFilters },
): Promise<StoreItemRow | null> {
  const parameters = new SqlParameters();
  const namespace = parameters.add(item.namespace);
  const key = parameters.add(item.key);
  const refresh = parameters.add(item.refreshTtl);
  const access = matchesAccessFilters(item.access, parameters);
  const { rows } = await runStatement<StoreItemRow>(
    client,
    `WITH found AS (
       SELECT ${STORE_ITEM_COLUMNS} FROM store_items i
       WHERE i.namespace = ${namespace}::text[] AND i.key = ${key} AND ${ITEM_IS_LIVE} AND ${access}
     ), refreshed AS (
       UPDATE store_items i SET expires_at = now() + i.ttl_minutes * interval '1 minute'
       FROM found
       WHERE ${refresh}::boolean AND i.ttl_minutes IS NOT NULL AND i.namespace = found.namespace AND i.key = found.key
       RETURNING i.expires_at
     )
     SELECT found.namespace, found.key, found.value, found.created_at, found.updated_at, found.encryption_context,
            coalesce((SELECT expires_at FROM refreshed), found.expires_at) AS expires_at
     FROM found`,
    parameters.values,
  );
  return rows[0] ?? null;
}
