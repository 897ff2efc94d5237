import type { EntityManager } from "typeorm";
import type { Assistant, AssistantVersion } from "../../domain/assistant.js";
import type { JsonObject } from "../../domain/json.js";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";
import { jsonParameter } from "./json-parameter.js";
import { toAssistant, toAssistantVersion, type AssistantRow, type AssistantVersionRow } from "./select-assistant.js";

const VERSION_COLUMNS = `v.assistant_id, v.version, v.graph_id, v.name, v.description, v.config, v.context, v.metadata,
  v.created_at, v.encryption_context`;

const LIST_VERSIONS = preparedStatement(
  "list_assistant_versions",
  `SELECT ${VERSION_COLUMNS} FROM assistant_versions v
   WHERE v.assistant_id = $1
     AND EXISTS (SELECT 1 FROM assistants a WHERE a.assistant_id = $1 AND a.metadata @> CAST($2 AS jsonb))
     AND ($3::jsonb IS NULL OR v.metadata @> $3::jsonb)
   ORDER BY v.version DESC LIMIT $4 OFFSET $5`,
);

/**
 * A page of an assistant's versions, newest first, if the assistant is within `scope`: an
 * assistant outside it (or missing) has none. `metadata`: containment each version's must satisfy.
 */
export async function listAssistantVersions(
  manager: EntityManager,
  assistantId: string,
  scope: Record<string, unknown>,
  page: { metadata?: JsonObject; limit: number; offset: number },
): Promise<AssistantVersion[]> {
  const { rows } = await runStatement<AssistantVersionRow>(manager, LIST_VERSIONS, [
    assistantId,
    JSON.stringify(scope),
    jsonParameter(page.metadata),
    page.limit,
    page.offset,
  ]);
  return rows.map(toAssistantVersion);
}

/** Every version of each of `assistantIds` (UUIDs) within `scope`, newest first. */
export async function listVersionsOfAssistants(
  manager: EntityManager,
  assistantIds: readonly string[],
  scope: Record<string, unknown>,
): Promise<AssistantVersion[]> {
  const { rows } = await runStatement<AssistantVersionRow>(
    manager,
    `SELECT ${VERSION_COLUMNS} FROM assistant_versions v
     WHERE v.assistant_id = ANY(CAST($1 AS uuid[]))
       AND v.assistant_id IN (SELECT a.assistant_id FROM assistants a WHERE a.metadata @> CAST($2 AS jsonb))
     ORDER BY v.version DESC`,
    [[...assistantIds], JSON.stringify(scope)],
  );
  return rows.map(toAssistantVersion);
}

/**
 * Makes an existing version active in one statement: the assistants row takes the version's
 * fields (as stored, with the context they were sealed with). No row: the assistant is missing
 * or outside `scope`, or has no such version.
 */
const ACTIVATE_VERSION = preparedStatement(
  "activate_assistant_version",
  `UPDATE assistants a SET
     graph_id = v.graph_id, name = v.name, description = v.description, config = v.config, context = v.context,
     metadata = v.metadata, encryption_context = v.encryption_context, version = v.version, updated_at = $4
   FROM assistant_versions v
   WHERE a.assistant_id = $1 AND a.metadata @> CAST($2 AS jsonb) AND v.assistant_id = a.assistant_id AND v.version = $3
   RETURNING a.assistant_id, a.graph_id, a.name, a.description, a.config, a.context, a.metadata,
             a.version, a.created_at, a.updated_at, a.encryption_context`,
);

export async function activateAssistantVersion(
  manager: EntityManager,
  target: { assistantId: string; scope: Record<string, unknown>; version: number },
  now: Date,
): Promise<Assistant | null> {
  const { rows } = await runStatement<AssistantRow>(manager, ACTIVATE_VERSION, [
    target.assistantId,
    JSON.stringify(target.scope),
    target.version,
    now,
  ]);
  const [row] = rows;
  return row ? toAssistant(row) : null;
}
