import type { EntityManager } from "typeorm";
import type { Assistant } from "../../domain/assistant.js";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";

/**
 * New assistants and their version 1, in one statement: the version rows are inserted from what
 * the assistants INSERT returned, so an id that exists already (ON CONFLICT DO NOTHING: no row
 * returned) writes no version either. The assistants arrive as one JSON array
 * (jsonb_to_recordset), as the run queue's do (enqueue-runs.ts). Their ids must be distinct: two
 * rows with one id in one INSERT would both read as inserted.
 */
const INSERT_ASSISTANTS = preparedStatement(
  "insert_assistants_json",
  `WITH given AS (
     SELECT * FROM jsonb_to_recordset($1::jsonb) AS g (
       assistant_id uuid, graph_id text, name text, description text, config jsonb, context jsonb, metadata jsonb,
       version integer, created_at timestamptz, updated_at timestamptz, encryption_context jsonb)
   ), inserted AS (
     INSERT INTO assistants (assistant_id, graph_id, name, description, config, context, metadata, version, created_at, updated_at, encryption_context)
     SELECT assistant_id, graph_id, name, description, config, context, metadata, version, created_at, updated_at, encryption_context FROM given
     ON CONFLICT (assistant_id) DO NOTHING
     RETURNING assistant_id, version, graph_id, name, description, config, context, metadata, created_at, encryption_context
   ), saved_version AS (
     INSERT INTO assistant_versions (assistant_id, version, graph_id, name, description, config, context, metadata, created_at, encryption_context)
     SELECT assistant_id, version, graph_id, name, description, config, context, metadata, created_at, encryption_context FROM inserted
   )
   SELECT assistant_id FROM inserted`,
);

/**
 * Stores `assistants` (fields as stored: sealed when encryption is on; ids distinct); answers,
 * in their order, whether each was inserted (false: its id exists).
 */
export async function insertAssistants(manager: EntityManager, assistants: readonly Assistant[]): Promise<boolean[]> {
  const rows = assistants.map((assistant) => ({
    assistant_id: assistant.assistantId,
    graph_id: assistant.graphId,
    name: assistant.name,
    description: assistant.description,
    config: assistant.config,
    context: assistant.context,
    metadata: assistant.metadata,
    version: assistant.version,
    created_at: assistant.createdAt,
    updated_at: assistant.updatedAt,
    encryption_context: assistant.encryptionContext ?? null,
  }));
  const { rows: inserted } = await runStatement<{ assistant_id: string }>(manager, INSERT_ASSISTANTS, [JSON.stringify(rows)]);
  const insertedIds = new Set(inserted.map((row) => row.assistant_id));
  return assistants.map((assistant) => insertedIds.has(assistant.assistantId));
}
