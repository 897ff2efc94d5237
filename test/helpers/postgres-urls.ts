/**
 * Tests need a real PostgreSQL. DATABASE_URL names the server (any database on it); the default
 * is the local server this project's machines run.
 */
const BASE_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export const TEMPLATE_DATABASE = "hangar_test_template";

export function databaseUrlFor(database: string): string {
  const url = new URL(BASE_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

export function adminUrl(): string {
  return databaseUrlFor("postgres");
}
