import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * `pg_dump --schema-only` of a database, normalized so that only the schema decides the text:
 * comments, SET lines, the random `\restrict` key newer pg_dump versions print, and runs of blank
 * lines are dropped; the migrations bookkeeping table's rows are data, so they are not included.
 */
export async function dumpDatabaseSchema(databaseUrl: string): Promise<string> {
  const { stdout } = await run("pg_dump", ["--schema-only", "--no-owner", "--no-privileges", "--no-comments", databaseUrl], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const lines = stdout
    .split("\n")
    .filter((line) => !line.startsWith("--"))
    .filter((line) => !/^SET |^SELECT pg_catalog\.set_config|^\\(un)?restrict /.test(line));
  return `${lines.join("\n").replace(/\n{3,}/g, "\n\n").trim()}\n`;
}
