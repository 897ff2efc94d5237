import { randomBytes } from "node:crypto";
import type { EntityManager } from "typeorm";
import { runStatement } from "../run-statement.js";

/** Bytes of a new server secret (HMAC-SHA256 keys: 32 is the hash's size). */
const SECRET_BYTES = 32;

/**
 * The server's secret for `purpose` (table server_secrets), created by the first process that asks.
 * Two statements on purpose: the INSERT of a process that lost the race inserts nothing, and the
 * SELECT after it (a new snapshot) reads the winner's, so every process ends with the same key.
 */
export async function serverSecret(manager: EntityManager, purpose: string): Promise<Buffer> {
  await runStatement(manager, `INSERT INTO server_secrets (purpose, secret) VALUES ($1, $2) ON CONFLICT (purpose) DO NOTHING`, [
    purpose,
    randomBytes(SECRET_BYTES),
  ]);
  const { rows } = await runStatement<{ secret: Buffer }>(manager, `SELECT secret FROM server_secrets WHERE purpose = $1`, [purpose]);
  return rows[0]!.secret;
}
