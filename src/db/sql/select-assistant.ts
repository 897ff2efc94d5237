import type { EntityManager } from "typeorm";
import type { Assistant, AssistantVersion } from "../../domain/assistant.js";
import type { JsonObject } from "../../domain/json.js";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";

/** Column list every assistants statement returns, so all of them map rows with toAssistant. */
export const ASSISTANT_COLUMNS = `assistant_id, graph_id, name, description, config, context, metadata, version, created_at, updated_at,
  encryption_context`;

const SELECT_ONE = `SELECT ${ASSISTANT_COLUMNS} FROM assistants WHERE assistant_id = $1 AND metadata @> CAST($2 AS jsonb)`;
const SELECT_ASSISTANT = preparedStatement("select_assistant", SELECT_ONE);
const LOCK_ASSISTANT = preparedStatement("lock_assistant", `${SELECT_ONE} FOR UPDATE`);
const SELECT_ASSISTANTS_BY_IDS = preparedStatement(
  "select_assistants_by_ids",
  `SELECT ${ASSISTANT_COLUMNS} FROM assistants WHERE assistant_id = ANY(CAST($1 AS uuid[])) AND metadata @> CAST($2 AS jsonb)`,
);

/**
 * One assistant by id, if its metadata contains `scope` (the caller's authorization; `{}` for
 * anyone). Every run creation reads its assistant, and TypeORM's findOne cost the
 * server ~0.5 ms of CPU per call in the run bench (query building and hydration): this is the
 * same read as plain SQL. `lock`: FOR UPDATE, held until the caller's transaction ends.
 */
export async function selectAssistant(
  manager: EntityManager,
  assistantId: string,
  scope: Record<string, unknown> = {},
  options: { lock?: boolean } = {},
): Promise<Assistant | null> {
  const statement = options.lock ? LOCK_ASSISTANT : SELECT_ASSISTANT;
  const { rows } = await runStatement<AssistantRow>(manager, statement, [assistantId, JSON.stringify(scope)]);
  const [row] = rows;
  return row ? toAssistant(row) : null;
}

/** An assistants row as ASSISTANT_COLUMNS read it. */
export interface AssistantRow {
  assistant_id: string;
  graph_id: string;
  name: string;
  description: string | null;
  config: JsonObject;
  context: JsonObject;
  metadata: JsonObject;
  version: number;
  created_at: Date;
  updated_at: Date;
  encryption_context: JsonObject | null;
}

export function toAssistant(row: AssistantRow): Assistant {
  return { ...toAssistantVersion(row), updatedAt: row.updated_at };
}

/** An assistant_versions row: the assistants row's columns but updated_at (a version never changes). */
export type AssistantVersionRow = Omit<AssistantRow, "updated_at">;

/** One mapper for both tables: a version row holds the assistant's fields as they were then. */
export function toAssistantVersion(row: AssistantVersionRow): AssistantVersion {
  return {
    assistantId: row.assistant_id,
    graphId: row.graph_id,
    name: row.name,
    description: row.description,
    config: row.config,
    context: row.context,
    metadata: row.metadata,
    version: row.version,
    createdAt: row.created_at,
    encryptionContext: row.encryption_context,
  };
}

/** The assistants among `assistantIds` (UUIDs) within `scope`, in no particular order. */
export async function selectAssistantsByIds(
  manager: EntityManager,
  assistantIds: readonly string[],
  scope: Record<string, unknown>,
): Promise<Assistant[]> {
  const { rows } = await runStatement<AssistantRow>(manager, SELECT_ASSISTANTS_BY_IDS, [[...assistantIds], JSON.stringify(scope)]);
  return rows.map(toAssistant);
}

/** One assistant read: by id (a UUID), within `scope`. */
export interface AssistantRead {
  assistantId: string;
  scope: Record<string, unknown>;
}

/**
 * Each read's assistant, or null, in their order: one statement per distinct scope (usually
 * one), for reads batched across requests (Database.assistantReads).
 */
export async function selectAssistantsOfReads(manager: EntityManager, reads: readonly AssistantRead[]): Promise<(Assistant | null)[]> {
  const scopes = reads.map((read) => JSON.stringify(read.scope));
  const idsOfScope = new Map<string, Set<string>>();
  reads.forEach((read, index) => {
    const ids = idsOfScope.get(scopes[index]!);
    if (ids) ids.add(read.assistantId);
    else idsOfScope.set(scopes[index]!, new Set([read.assistantId]));
  });
  const found = new Map<string, Assistant>();
  await Promise.all(
    [...idsOfScope].map(async ([scope, ids]) => {
      const assistants = await selectAssistantsByIds(manager, [...ids], JSON.parse(scope));
      for (const assistant of assistants) found.set(`${scope}\n${assistant.assistantId}`, assistant);
    }),
  );
  return reads.map((read, index) => found.get(`${scopes[index]}\n${read.assistantId}`) ?? null);
}
