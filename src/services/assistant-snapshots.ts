import type { Database } from "../db/database.js";
import type { Assistant } from "../domain/assistant.js";

// Enough for every assistant a deployment really runs; the oldest entry goes beyond it.
const MAX_ASSISTANTS = 1_000;

const byDatabase = new WeakMap<Database, Map<string, Assistant>>();

/**
 * The assistants runs were last composed from, per database, so creating a run need not read
 * its assistant first. A snapshot is only ever a guess: run creation hands its version and
 * updated_at to hangar_enqueue_run, which refuses the run ('assistant-changed') if the assistant
 * changed since (in any process), and the run is then composed again from a fresh read.
 */
export const assistantSnapshots = {
  get(db: Database, assistantId: string): Assistant | undefined {
    return byDatabase.get(db)?.get(assistantId);
  },

  remember(db: Database, assistant: Assistant): void {
    let snapshots = byDatabase.get(db);
    if (!snapshots) byDatabase.set(db, (snapshots = new Map()));
    snapshots.delete(assistant.assistantId);
    snapshots.set(assistant.assistantId, assistant);
    if (snapshots.size > MAX_ASSISTANTS) snapshots.delete(snapshots.keys().next().value!);
  },

  forget(db: Database, assistantId: string): void {
    byDatabase.get(db)?.delete(assistantId);
  },
};
