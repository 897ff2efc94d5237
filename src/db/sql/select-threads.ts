import type { EntityManager } from "typeorm";
import type { Thread } from "../../domain/thread.js";
import { preparedStatement } from "../prepared-statement.js";
import { runStatement } from "../run-statement.js";
import { THREAD_COLUMNS, threadFromRow, type ThreadRow } from "./thread-rows.js";

const SELECT_THREAD = `SELECT ${THREAD_COLUMNS} FROM threads WHERE thread_id = $1 AND metadata @> CAST($2 AS jsonb)`;
const SELECT_THREAD_STATEMENT = preparedStatement("select_thread", SELECT_THREAD);
const LOCK_THREAD_STATEMENT = preparedStatement("lock_thread", `${SELECT_THREAD} FOR UPDATE`);

/**
 * One thread by id (a UUID), if its metadata contains `scope` (the caller's authorization; `{}`
 * for anyone). `lock`: FOR UPDATE, held until the caller's transaction ends.
 */
export async function selectThread(
  manager: EntityManager,
  threadId: string,
  scope: Record<string, unknown>,
  options: { lock?: boolean } = {},
): Promise<Thread | null> {
  const statement = options.lock ? LOCK_THREAD_STATEMENT : SELECT_THREAD_STATEMENT;
  const { rows } = await runStatement<ThreadRow>(manager, statement, [threadId, JSON.stringify(scope)]);
  const [row] = rows;
  return row ? threadFromRow(row) : null;
}

/** The threads among `threadIds` (UUIDs) within `scope`, in no particular order. */
export async function selectThreadsByIds(manager: EntityManager, threadIds: readonly string[], scope: Record<string, unknown>): Promise<Thread[]> {
  const { rows } = await runStatement<ThreadRow>(
    manager,
    `SELECT ${THREAD_COLUMNS} FROM threads WHERE thread_id = ANY(CAST($1 AS uuid[])) AND metadata @> CAST($2 AS jsonb)`,
    [[...threadIds], JSON.stringify(scope)],
  );
  return rows.map(threadFromRow);
}

/**
 * The newest `perAssistant` threads of each assistant (found through metadata.assistant_id, as
 * runs record it) within `scope`, newest first, ties broken by id.
 */
export async function selectThreadsOfAssistants(
  manager: EntityManager,
  assistantIds: readonly string[],
  perAssistant: number,
  scope: Record<string, unknown>,
): Promise<Thread[]> {
  const { rows } = await runStatement<ThreadRow>(
    manager,
    `SELECT ${THREAD_COLUMNS} FROM threads
     WHERE thread_id IN (SELECT ranked.thread_id FROM (
             SELECT thread_id, row_number() OVER (
               PARTITION BY metadata ->> 'assistant_id' ORDER BY created_at DESC, thread_id DESC) AS position
             FROM threads WHERE metadata ->> 'assistant_id' = ANY($1::text[])) ranked
           WHERE ranked.position <= $2)
       AND metadata @> CAST($3 AS jsonb)
     ORDER BY created_at DESC, thread_id DESC`,
    [[...assistantIds], perAssistant, JSON.stringify(scope)],
  );
  return rows.map(threadFromRow);
}
