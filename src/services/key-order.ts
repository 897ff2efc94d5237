/**
 * DataLoader batch functions must answer in the order of their keys. Ids are matched
 * case-insensitively because UUIDs may arrive upper-cased from clients.
 */
export function inKeyOrder<Row>(keys: readonly string[], rows: Row[], keyOf: (row: Row) => string): (Row | null)[] {
  const byKey = new Map(rows.map((row) => [keyOf(row), row]));
  return keys.map((key) => byKey.get(key.toLowerCase()) ?? null);
}
