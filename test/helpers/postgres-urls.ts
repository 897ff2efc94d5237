/**
 * Tests need a real PostgreSQL. DATABASE_URL names the server (any database on it); the default
 * is the local server this project's machines run.
 */
const BASE_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * The migrated template each test file clones. Its name is unique per `vitest run` (global-setup
 * sets it before the workers start, and they inherit the environment), so two runs on one server
 * never drop each other's template.
 */
export function templateDatabase(): string {
  const name = process.env.HANGAR_TEST_TEMPLATE;
  if (!name) throw new Error("HANGAR_TEST_TEMPLATE is not set: run tests through vitest (test/helpers/global-setup.ts)");
  return name;
}

export function databaseUrlFor(database: string): string {
  const url = new URL(BASE_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

export function adminUrl(): string {
  return databaseUrlFor("postgres");
}
