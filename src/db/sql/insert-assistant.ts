import type { EntityManager } from "typeorm";
import type { Assistant } from "../../domain/assistant.js";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";

/**
 * A new assistant and its version 1, in one statement: the version row is inserted from what
 * the assistants INSERT returned, so an id that exists already (ON CONFLICT DO NOTHING: no row
 * returned) writes no version either.
 */
const INSERT_ASSISTANT = preparedStatement(
  "insert_assistant",
  `WITH inserted AS (
     INSERT INTO assistants (assistant_id, graph_id, name, description, config, context, metadata, version, created_at, updated_at, encryption_context)
     VALUES ($1, $2, $3, $4, CAST($5 AS jsonb), CAST($6 AS jsonb), CAST($7 AS jsonb), $8, $9, $10, CAST($11 AS jsonb))
     ON CONFLICT (assistant_id) DO NOTHING
     RETURNING assistant_id, version, graph_id, name, description, config, context, metadata, created_at, encryption_context
   ), saved_version AS (
     INSERT INTO assistant_versions (assistant_id, version, graph_id, name, description, config, context, metadata, created_at, encryption_context)
     SELECT assistant_id, version, graph_id, name, description, config, context, metadata, created_at, encryption_context FROM inserted
   )
   SELECT count(*)::int AS inserted FROM inserted`,
);

/** Stores `assistant` (fields as stored: sealed when encryption is on); false when its id exists. */
export async function insertAssistant(manager: EntityManager, assistant: Assistant): Promise<boolean> {
  const json = (value: unknown) => (value == null ? null : JSON.stringify(value));
  const {
    rows: [row],
  } = await runStatement<{ inserted: number }>(manager, INSERT_ASSISTANT, [
    assistant.assistantId,
    assistant.graphId,
    assistant.name,
    assistant.description,
    json(assistant.config),
    json(assistant.context),
    json(assistant.metadata),
    assistant.version,
    assistant.createdAt,
    assistant.updatedAt,
    json(assistant.encryptionContext),
  ]);
  return row!.inserted === 1;
}
