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

/**
 * The prefix of this run's per-file databases (test-database.ts): global-setup's teardown finds
 * the ones a file left behind by it and fails the run.
 */
export function testDatabasePrefix(): string {
  return templateDatabase().replace("_template_", "_run_") + "_";
}

/** The prefix of this run's databases that their files are done with: global-setup's teardown drops them. */
export function retiredDatabasePrefix(): string {
  return templateDatabase().replace("_template_", "_retired_") + "_";
}

export function databaseUrlFor(database: string): string {
  const url = new URL(BASE_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

export function adminUrl(): string {
  return databaseUrlFor("postgres");
}
