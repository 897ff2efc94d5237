import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * One way to run SQL (issue 27 item 7): every statement of the storage and service layers goes
 * through db/run-statement.ts, whose answer has one shape ({rows, affected}) for every statement
 * kind. A direct `manager.query` answers an UPDATE or DELETE with `[rows, count]` and a SELECT
 * with the rows, which callers got wrong (a DELETE … RETURNING read as rows deleted no
 * checkpoints); a direct `pool.query` bypasses the transaction a manager may hold.
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src");
const SCANNED = ["db", "services"];
/** The one file that calls the drivers' query methods. */
const RUNNER = path.join("db", "run-statement.ts");

/** `x.query(`, `x.query<Row>(`, a query runner of its own, or the data source's pool reached directly. */
const DIRECT_SQL = /\.query\s*(?:<[^()]*>)?\s*\(|\bcreateQueryRunner\s*\(|(?<!function )\bpoolOfDataSource\s*\(/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** Comments may name the methods (to say why not); only code counts. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

function directSqlCalls(text: string): string[] {
  return [...withoutComments(text).matchAll(DIRECT_SQL)].map((match) => match[0]);
}

describe("one way to run SQL", () => {
  it("no file of db/ or services/ but db/run-statement.ts calls a query method itself", () => {
    const offenders: string[] = [];
    for (const file of SCANNED.flatMap((dir) => sourceFiles(path.join(SRC, dir)))) {
      const relative = path.relative(SRC, file);
      if (relative === RUNNER) continue;
      const calls = directSqlCalls(fs.readFileSync(file, "utf8"));
      if (calls.length > 0) offenders.push(`${relative}: ${calls.join(", ")}`);
    }
    expect(offenders).toEqual([]);
  });

  it("db/sql has statements to check, and they run through runStatement", () => {
    const files = sourceFiles(path.join(SRC, "db", "sql"));
    const running = files.filter((file) => /\brunStatement\s*[<(]/.test(fs.readFileSync(file, "utf8")));
    expect(running.length).toBeGreaterThan(80);
  });

  it("finds every form of a direct call (the scan itself works)", () => {
    const sample = [
      "await manager.query(`SELECT 1`);",
      "const { rows } = await pool.query<{ n: number }>('SELECT 1');",
      "await client\n  .query({ name, text, values });",
      "const runner = manager.connection.createQueryRunner();",
      "poolOfDataSource(manager.connection).query",
      "// manager.query( in a comment is fine",
      "/* pool.query( here too */",
      "export function poolOfDataSource(dataSource: DataSource) {}",
      "await runStatement(manager, `SELECT 1`);",
    ].join("\n");
    expect(directSqlCalls(sample)).toEqual([".query(", ".query<{ n: number }>(", ".query(", "createQueryRunner(", "poolOfDataSource("]);
  });
});
