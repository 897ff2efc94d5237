import type { EntityManager } from "typeorm";
import type { Assistant } from "../../domain/assistant.js";
import type { JsonObject } from "../../domain/json.js";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";
import { ASSISTANT_COLUMNS, toAssistant, type AssistantRow } from "./select-assistant.js";

/**
 * Makes version latest_version + 1 of each given assistant and makes it active, in one
 * statement: the UPDATE locks the rows (a racing update waits, then re-reads the row and numbers
 * its version after this one), and the INSERT of the version rows takes what the UPDATE
 * returned, so all land or none does. The updates arrive as one JSON array (jsonb_to_recordset),
 * one per assistant (an UPDATE … FROM changes a row once, however many given rows match it).
 *
 * Per update: omitted fields (null graph_id, name, config; set_description false) keep the
 * active version's value; context and metadata are exactly the new version's. check_sealed true:
 * only while the row's encryption_context is still sealed_with, the context the caller sealed the
 * new fields with. No row for an update: the assistant is missing, outside `scope`, or (with
 * check_sealed) was sealed meanwhile with another context.
 */
const UPDATE_ASSISTANTS = preparedStatement(
  "update_assistants_json",
  `WITH given AS (
     SELECT * FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (
       assistant_id uuid, scope jsonb, check_sealed boolean, sealed_with jsonb, graph_id text, name text,
       set_description boolean, description text, config jsonb, context jsonb, metadata jsonb, updated_at timestamptz,
       encryption_context jsonb
     )) WITH ORDINALITY AS g (assistant_id, scope, check_sealed, sealed_with, graph_id, name, set_description, description,
       config, context, metadata, updated_at, encryption_context, position)
   ), updated AS (
     UPDATE assistants a SET
       graph_id = coalesce(g.graph_id, a.graph_id),
       name = coalesce(g.name, a.name),
       description = CASE WHEN g.set_description THEN g.description ELSE a.description END,
       config = coalesce(g.config, a.config),
       context = g.context,
       metadata = g.metadata,
       encryption_context = g.encryption_context,
       version = a.latest_version + 1,
       latest_version = a.latest_version + 1,
       updated_at = g.updated_at
     FROM given g
     WHERE a.assistant_id = g.assistant_id AND a.metadata @> g.scope
       AND (NOT g.check_sealed OR a.encryption_context IS NOT DISTINCT FROM g.sealed_with)
     RETURNING g.position, ${ASSISTANT_COLUMNS.split(",").map((column) => `a.${column.trim()}`).join(", ")}
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

export interface AssistantUpdate {
  assistantId: string;
  /** The caller's authorization: the row's metadata must contain it ({} for anyone). */
  scope: Record<string, unknown>;
  /**
   * The stored encryption context the caller read and sealed with, checked in the statement;
   * undefined when encryption is off (any row matches).
   */
  sealedWith?: JsonObject | null;
  changes: AssistantChanges;
  now: Date;
}

/**
 * Each update's new active version as stored, or null (see UPDATE_ASSISTANTS), in their order.
 * The assistant ids must be distinct.
 */
export async function updateAssistants(manager: EntityManager, updates: readonly AssistantUpdate[]): Promise<(Assistant | null)[]> {
  const given = updates.map(({ assistantId, scope, sealedWith, changes, now }) => ({
    assistant_id: assistantId,
    scope,
    check_sealed: sealedWith !== undefined,
    sealed_with: sealedWith ?? null,
    graph_id: changes.graphId ?? null,
    name: changes.name ?? null,
    set_description: changes.description !== undefined,
    description: changes.description ?? null,
    config: changes.config ?? null,
    context: changes.context,
    metadata: changes.metadata,
    updated_at: now,
    encryption_context: changes.encryptionContext,
  }));
  const { rows } = await runStatement<AssistantRow & { position: string }>(manager, UPDATE_ASSISTANTS, [JSON.stringify(given)]);
  const byPosition = new Map(rows.map((row) => [Number(row.position), toAssistant(row)]));
  return updates.map((_, index) => byPosition.get(index + 1) ?? null);
}
