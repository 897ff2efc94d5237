import type { EntityManager } from "typeorm";

/**
 * Runs one statement and returns its rows and affected count in one shape for every statement
 * kind. (EntityManager.query returns `[rows, count]` for UPDATE/DELETE but plain rows for
 * SELECT/INSERT on PostgreSQL; QueryRunner's structured result does not have that split.) Inside
 * a transaction it uses the transaction's runner; otherwise a pooled connection, released after.
 */
export async function runStatement<Row>(
  manager: EntityManager,
  text: string,
  parameters: unknown[],
): Promise<{ rows: Row[]; affected: number }> {
  const ownRunner = manager.queryRunner ? null : manager.connection.createQueryRunner();
  const runner = manager.queryRunner ?? ownRunner!;
  try {
    const result = await runner.query(text, parameters, true);
    return { rows: result.records as Row[], affected: result.affected ?? result.records.length };
  } finally {
    await ownRunner?.release();
  }
}
