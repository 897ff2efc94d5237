import type { EntityManager } from "typeorm";
import type { Assistant } from "../../domain/assistant.js";
import type { JsonObject } from "../../domain/json.js";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";
import { toAssistant, type AssistantRow } from "./select-assistant.js";

/**
 * Makes version latest_version + 1 of an assistant and makes it active, in one statement: the
 * UPDATE locks the row (a racing update waits, then re-reads the row and numbers its version
 * after this one), and the INSERT of the version row takes what the UPDATE returned, so both
 * land or neither does. Omitted fields ($4, $5, $8; $6 false for the description) keep the
 * active version's value; context and metadata are exactly the new version's. $13 true: only
 * while the row's encryption_context is still $3, the context the caller sealed the new fields
 * with. No row: the assistant is missing, outside `scope`, or (with $13) was sealed meanwhile
 * with another context.
 */
const UPDATE_ASSISTANT = preparedStatement(
  "update_assistant",
  `WITH updated AS (
     UPDATE assistants a SET
       graph_id = coalesce($4, a.graph_id),
       name = coalesce($5, a.name),
       description = CASE WHEN $6::boolean THEN $7::text ELSE a.description END,
       config = coalesce(CAST($8 AS jsonb), a.config),
       context = CAST($9 AS jsonb),
       metadata = CAST($10 AS jsonb),
       encryption_context = CAST($12 AS jsonb),
       version = a.latest_version + 1,
       latest_version = a.latest_version + 1,
       updated_at = $11
     WHERE a.assistant_id = $1 AND a.metadata @> CAST($2 AS jsonb)
       AND (NOT $13::boolean OR a.encryption_context IS NOT DISTINCT FROM CAST($3 AS jsonb))
     RETURNING a.assistant_id, a.graph_id, a.name, a.description, a.config, a.context, a.metadata,
               a.version, a.created_at, a.updated_at, a.encryption_context
   ), saved_version AS (
     INSERT INTO assistant_versions (assistant_id, version, graph_id, name, description, config, context, metadata, created_at, encryption_context)
     SELECT assistant_id, version, graph_id, name, description, config, context, metadata, updated_at, encryption_context FROM updated
   )
   SELECT * FROM updated`,
);

export interface AssistantChanges {
  graphId?: string;
  name?: string;
  description?: string | null;
  config?: JsonObject;
  /** As stored (sealed when encryption is on). */
  context: JsonObject;
  metadata: JsonObject;
  encryptionContext: JsonObject | null;
}

/**
 * The new active version as stored, or null (see UPDATE_ASSISTANT). `sealedWith`: the stored
 * encryption context the caller read and sealed with, checked in the statement; undefined when
 * encryption is off (any row matches).
 */
export async function updateAssistant(
  manager: EntityManager,
  target: { assistantId: string; scope: Record<string, unknown>; sealedWith?: JsonObject | null },
  changes: AssistantChanges,
  now: Date,
): Promise<Assistant | null> {
  const { rows } = await runStatement<AssistantRow>(manager, UPDATE_ASSISTANT, [
    target.assistantId,
    JSON.stringify(target.scope),
    target.sealedWith == null ? null : JSON.stringify(target.sealedWith),
    changes.graphId ?? null,
    changes.name ?? null,
    changes.description !== undefined,
    changes.description ?? null,
    changes.config === undefined ? null : JSON.stringify(changes.config),
    JSON.stringify(changes.context),
    JSON.stringify(changes.metadata),
    now,
    changes.encryptionContext === null ? null : JSON.stringify(changes.encryptionContext),
    target.sealedWith !== undefined,
  ]);
  const [row] = rows;
  return row ? toAssistant(row) : null;
}
