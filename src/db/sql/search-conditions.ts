import type { SortOrder } from "../../domain/assistant.js";

/**
 * The WHERE clause, ORDER BY and page of a search statement, built from the filters a caller
 * gave. Every value is a numbered parameter ($1, $2, …); only the column names and directions
 * written in db/sql (never a caller's text) become part of the SQL.
 */
export class SearchConditions {
  readonly values: unknown[] = [];
  private readonly clauses: string[] = [];

  /** `clause` receives the placeholder of `value` (`$n`). */
  add(clause: (placeholder: string) => string, value: unknown): void {
    this.values.push(value);
    this.clauses.push(clause(`$${this.values.length}`));
  }

  /**
   * The caller's authorization scope: containment the row's metadata must satisfy. An empty
   * scope (anyone) adds no condition: `metadata @> '{}'` holds for every row, and would only
   * leave the planner a GIN index that cannot answer it without reading all of it.
   */
  addScope(scope: Record<string, unknown> | undefined): void {
    if (scope !== undefined && Object.keys(scope).length > 0) this.add((p) => `metadata @> CAST(${p} AS jsonb)`, JSON.stringify(scope));
  }

  /** A condition with no value of its own. */
  addFixed(clause: string): void {
    this.clauses.push(clause);
  }

  where(): string {
    return this.clauses.length === 0 ? "" : `WHERE ${this.clauses.join(" AND ")}`;
  }

  /**
   * `column` in `order`, then the id column (unique) in the same direction so that pages are
   * stable. `nullsLast`: NULLs after every value in either direction.
   */
  orderBy(column: string, order: SortOrder, idColumn: string, options: { nullsLast?: boolean } = {}): string {
    const direction = order === "asc" ? "ASC" : "DESC";
    const first = `${column} ${direction}${options.nullsLast ? " NULLS LAST" : ""}`;
    return column === idColumn ? first : `${first}, ${idColumn} ${direction}`;
  }

  /** LIMIT and OFFSET as parameters (added after every condition's). */
  page(page: { limit: number; offset: number }): string {
    this.values.push(page.limit, page.offset);
    return `LIMIT $${this.values.length - 1} OFFSET $${this.values.length}`;
  }
}
