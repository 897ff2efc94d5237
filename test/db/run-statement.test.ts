import pg from "pg";
import type { DataSource, EntityManager } from "typeorm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataSource } from "../../src/db/data-source.js";
import { preparedStatement } from "../../src/db/prepared-statement.js";
import { runStatement, type SqlHandle } from "../../src/db/run-statement.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";

// runStatement is the one way db/sql runs a statement: one answer shape whatever the statement
// kind and whatever it runs on, and named statements that stay named where a connection allows.
let database: TestDatabase;
let dataSource: DataSource;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  // One connection, so the prepared statements seen are those of the connection every statement used.
  pool = new pg.Pool({ connectionString: database.url, max: 1 });
  dataSource = createDataSource(pool);
  await dataSource.initialize();
  await runStatement(pool, "CREATE TABLE statement_notes (id int PRIMARY KEY, body text NOT NULL)");
});
afterAll(async () => {
  // TypeORM ends the pool it was given.
  await dataSource?.destroy();
  await database?.retire();
});

/** Every statement kind on one handle; the table is emptied first. */
async function everyKind(db: SqlHandle) {
  await runStatement(db, "DELETE FROM statement_notes");
  return {
    insert: await runStatement<{ id: number }>(db, "INSERT INTO statement_notes VALUES (1, 'a'), (2, 'b') RETURNING id"),
    select: await runStatement<{ id: number }>(db, "SELECT id FROM statement_notes ORDER BY id"),
    updateReturning: await runStatement<{ id: number }>(db, "UPDATE statement_notes SET body = 'c' WHERE id = $1 RETURNING id", [1]),
    update: await runStatement(db, "UPDATE statement_notes SET body = 'd'"),
    deleteReturning: await runStatement<{ id: number }>(db, "DELETE FROM statement_notes WHERE id = $1 RETURNING id", [2]),
    delete: await runStatement(db, "DELETE FROM statement_notes"),
  };
}

const EVERY_KIND_ANSWERS = {
  insert: { rows: [{ id: 1 }, { id: 2 }], affected: 2 },
  select: { rows: [{ id: 1 }, { id: 2 }], affected: 2 },
  // TypeORM's own manager.query answers these two with [rows, count] instead of the rows.
  updateReturning: { rows: [{ id: 1 }], affected: 1 },
  update: { rows: [], affected: 2 },
  deleteReturning: { rows: [{ id: 2 }], affected: 1 },
  delete: { rows: [], affected: 1 },
};

async function preparedNames(db: SqlHandle): Promise<string[]> {
  const { rows } = await runStatement<{ name: string }>(db, "SELECT name FROM pg_prepared_statements ORDER BY name");
  return rows.map((row) => row.name);
}

describe("runStatement", () => {
  it("answers {rows, affected} alike for every statement kind, on the pool, a manager and in a transaction", async () => {
    expect(await everyKind(pool)).toEqual(EVERY_KIND_ANSWERS);
    expect(await everyKind(dataSource.manager)).toEqual(EVERY_KIND_ANSWERS);
    expect(await dataSource.transaction((manager: EntityManager) => everyKind(manager))).toEqual(EVERY_KIND_ANSWERS);
  });

  it("runs a transaction's statements on the transaction's connection (a rollback undoes them)", async () => {
    await expect(
      dataSource.transaction(async (manager) => {
        await runStatement(manager, "INSERT INTO statement_notes VALUES (3, 'rolled back')");
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect((await runStatement(pool, "SELECT 1 FROM statement_notes WHERE id = 3")).rows).toEqual([]);
  });

  it("names a prepared statement on the pool and through a manager, and runs it as plain text in a transaction", async () => {
    const count = preparedStatement("test_count_notes", "SELECT count(*)::int AS n FROM statement_notes WHERE id > $1");
    const inTransaction = preparedStatement("test_count_notes_in_tx", "SELECT count(*)::int AS n FROM statement_notes WHERE id > $1");
    await runStatement(pool, "INSERT INTO statement_notes VALUES (10, 'x'), (11, 'y')");
    expect(await runStatement(pool, count, [10])).toEqual({ rows: [{ n: 1 }], affected: 1 });
    expect(await runStatement(dataSource.manager, count, [0])).toEqual({ rows: [{ n: 2 }], affected: 1 });
    expect(await dataSource.transaction((manager) => runStatement(manager, inTransaction, [0]))).toEqual({ rows: [{ n: 2 }], affected: 1 });
    const names = await preparedNames(pool);
    expect(names).toContain("hangar_test_count_notes");
    expect(names).not.toContain("hangar_test_count_notes_in_tx");
  });
});
