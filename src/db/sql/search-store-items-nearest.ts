import type pg from "pg";
import { withPoolTransaction } from "../tx.js";
import {
  itemSearchConditions,
  namespaceHasPrefix,
  pageWithTtlRefresh,
  SqlParameters,
  STORE_ITEM_COLUMNS,
  type StoreItemRow,
  type StoreItemSearch,
} from "./store-sql.js";
import { runStatement } from "../run-statement.js";

/** pgvector reads at most hnsw.ef_search candidates from the index, and allows up to 1000. */
const MAX_CANDIDATES = 1000;

/**
 * Semantic search through pgvector's HNSW index (store_vectors.embedding_vector): the nearest
 * vectors under the namespace prefix come from the index, then items are filtered, ranked by
 * their best field and paged as in the exact scan. Candidates are 4× the rows asked for (at
 * least 100); the index is approximate, and value or auth filters that leave few of them can
 * return fewer items than exist.
 *
 * Settings for this transaction only (separate statements: a scan reads them when it starts):
 * hnsw.ef_search as large as the candidates; the index even when a prefix is given (PostgreSQL
 * estimates `namespace[1:n] = …` to match 0.5% of rows and would otherwise sort a sequential
 * scan, measured: 5,000 vectors → seq scan + sort); and from pgvector 0.8 on, iterative index
 * scans, so a prefix holding few of the vectors still yields enough candidates.
 */
export async function searchStoreItemsNearest(
  pool: pg.Pool,
  search: StoreItemSearch & { queryVector: number[] },
  options: { iterativeScan: boolean },
): Promise<StoreItemRow[]> {
  const candidates = Math.min(MAX_CANDIDATES, Math.max(100, (search.limit + search.offset) * 4));
  const parameters = new SqlParameters();
  const query = `${parameters.add(JSON.stringify(search.queryVector))}::vector`;
  const matching = `
    SELECT ${STORE_ITEM_COLUMNS}, nearest.score FROM (
      SELECT candidate.namespace, candidate.key, 1 - min(candidate.distance) AS score FROM (
        SELECT v.namespace, v.key, v.embedding_vector <=> ${query} AS distance FROM store_vectors v
        WHERE ${namespaceHasPrefix(search.namespacePrefix, parameters, "v")}
        ORDER BY v.embedding_vector <=> ${query} LIMIT ${parameters.add(candidates)}
      ) candidate GROUP BY candidate.namespace, candidate.key
    ) nearest JOIN store_items i ON i.namespace = nearest.namespace AND i.key = nearest.key
    WHERE ${itemSearchConditions(search, parameters)}`;
  const text = pageWithTtlRefresh(matching, search, parameters);
  return withPoolTransaction(pool, async (client) => {
    await runStatement(client, "SELECT set_config('hnsw.ef_search', $1, true), set_config('enable_seqscan', 'off', true)", [String(candidates)]);
    // Before 0.8 pgvector reserves the hnsw. prefix without this setting: setting it would fail.
    if (options.iterativeScan) await runStatement(client, "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)");
    const { rows } = await runStatement<StoreItemRow>(client, text, parameters.values);
    return rows;
  });
}
