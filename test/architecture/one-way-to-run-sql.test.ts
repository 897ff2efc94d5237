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
 *
 * TypeORM's query builders and repository CRUD (`manager.save`, `findOne`, `delete`, …) are SQL
 * too, written by TypeORM where no statement-count test or reader sees it: `save` read a row
 * before updating it, `getCount` sent its own statement shape. They are refused here as well; the
 * entities stay only for the data source (db/data-source.ts), whose migrations and transactions
 * TypeORM still runs, and no file of db/ or services/ needs an exception.
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src");
const SCANNED = ["db", "services"];
/** The one file that calls the drivers' query methods. */
const RUNNER = path.join("db", "run-statement.ts");

/**
 * `x.query(`, `x.query<Row>(`, a query runner of its own, or the data source's pool reached
 * directly; a query builder; a repository; an EntityManager CRUD method called on a manager, or
 * on anything with an entity as its first argument (`(tx ?? manager).update(ThreadEntity, …)`).
 */
const CRUD = "save|insert|update|upsert|delete|softDelete|find|findOne|findBy|findOneBy|findAndCount|findOneOrFail|count|countBy|exists|remove|increment|decrement|clear|preload";
const DIRECT_SQL = new RegExp(
  [
    String.raw`\.query\s*(?:<[^()]*>)?\s*\(`,
    String.raw`\bcreateQueryRunner\s*\(`,
    String.raw`(?<!function )\bpoolOfDataSource\s*\(`,
    String.raw`\bcreateQueryBuilder\s*\(`,
    String.raw`\bgetRepository\s*\(`,
    String.raw`\bmanager\s*\.\s*(?:${CRUD})\s*(?:<[^()]*>)?\s*\(`,
    String.raw`\.\s*(?:${CRUD})\s*(?:<[^()]*>)?\s*\(\s*\w*Entity\b`,
  ].join("|"),
  "g",
);

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
  it("no file of db/ or services/ but db/run-statement.ts calls a query method, a query builder or TypeORM CRUD itself", () => {
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
      'manager.createQueryBuilder(ThreadEntity, "t").where("x").getMany();',
      "ctx.db.dataSource.getRepository(CronEntity);",
      "await manager.save(CronEntity, stored);",
      "await manager.findOne(AssistantVersionEntity, { where: { assistantId } });",
      "await tx.manager\n  .delete(ThreadEntity, { threadId });",
      "await (tx?.manager ?? ctx.db.dataSource.manager).update(ThreadEntity, { threadId }, values);",
      "await manager.insert<Thread>(ThreadEntity, values);",
      "threads.find((thread) => thread.ok); map.delete(key); ids.count;",
    ].join("\n");
    expect(directSqlCalls(sample).map((call) => call.replace(/\s+/g, " "))).toEqual([
      ".query(",
      ".query<{ n: number }>(",
      ".query(",
      "createQueryRunner(",
      "poolOfDataSource(",
      "createQueryBuilder(",
      "getRepository(",
      "manager.save(",
      "manager.findOne(",
      "manager .delete(",
      ".update(ThreadEntity",
      "manager.insert<Thread>(",
    ]);
  });
});
