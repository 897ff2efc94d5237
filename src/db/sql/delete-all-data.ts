import type { EntityManager } from "typeorm";
import { SYSTEM_CREATOR } from "../../domain/assistant.js";
import { runStatement } from "../run-statement.js";

/*
 * Whole-table deletes for POST /internal/truncate (a development and test aid, off by default).
 * Each runs inside the caller's transaction and takes the row locks a DELETE takes; a run being
 * executed meanwhile finds its row gone when it settles, as after any delete.
 */

/** Every run (their stream events cascade). */
export async function deleteAllRuns(manager: EntityManager): Promise<void> {
  await runStatement(manager, "DELETE FROM runs");
}

/** Every queued or given-up webhook delivery (they belong to runs). */
export async function deleteAllWebhookDeliveries(manager: EntityManager): Promise<void> {
  await runStatement(manager, "DELETE FROM webhook_deliveries");
}

/** Every thread (runs and thread crons cascade); returns their ids, for their checkpoints. */
export async function deleteAllThreads(manager: EntityManager): Promise<string[]> {
  const { rows } = await runStatement<{ thread_id: string }>(manager, "DELETE FROM threads RETURNING thread_id", []);
  return rows.map((row) => row.thread_id);
}

/** Every assistant not created by the deployment itself (versions and crons cascade). */
export async function deleteUserAssistants(manager: EntityManager): Promise<void> {
  await runStatement(manager, "DELETE FROM assistants WHERE metadata->>'created_by' IS DISTINCT FROM $1", [SYSTEM_CREATOR]);
}

/** Every store item (their vectors cascade). */
export async function deleteAllStoreItems(manager: EntityManager): Promise<void> {
  await runStatement(manager, "DELETE FROM store_items");
}
