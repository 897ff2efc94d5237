import type { EntityManager } from "typeorm";
import { validateTtlMinutes } from "../domain/input-bounds.js";
import { deleteThread } from "../db/sql/delete-thread.js";
import { insertThreads } from "../db/sql/insert-threads.js";
import { selectThread, selectThreadsByIds, selectThreadsOfAssistants } from "../db/sql/select-threads.js";
import { mergeThreadMetadata, updateThread } from "../db/sql/update-thread.js";
import { withRetry } from "../db/retry.js";
import { countThreads, searchThreads, type ThreadFilter } from "../db/sql/search-threads.js";
import { copyThreadCheckpoints, deleteThreadCheckpoints } from "../db/sql/thread-checkpoints.js";
import { deleteThreadsOfAssistant } from "../db/sql/delete-threads-of-assistant.js";
import { selectActiveRunIds } from "../db/sql/select-active-run-ids.js";
import { withTransaction } from "../db/tx.js";
import type { SortOrder } from "../domain/assistant.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../domain/errors.js";
import { isUuid, newId } from "../domain/ids.js";
import type { JsonObject } from "../domain/json.js";
import type { Thread, ThreadSortField } from "../domain/thread.js";
import { extractFromThread, parseExtractPaths } from "../domain/thread-extract.js";
import type { ThreadSuperstep } from "../domain/thread-state.js";
import { scopeOf, stampedMetadata, UNRESTRICTED, type MetadataScope } from "./access-scope.js";
import { openThread, requireScopeKeysInClear, sealFields } from "./field-encryption.js";
import { inKeyOrder } from "./key-order.js";
import type { ServiceContext } from "./service-context.js";
import { announceRunsDeletedWithThread } from "./run-lifecycle/announce-run-end.js";
import { threadStateService } from "./thread-state.service.js";

export interface CreateThreadInput {
  threadId?: string;
  metadata?: JsonObject;
  ifExists?: "raise" | "do_nothing";
  /** State to seed a new thread with (needs metadata.graph_id); not applied to an existing thread. */
  supersteps?: ThreadSuperstep[];
  /** Minutes after its last update when the thread expires; default: checkpointer.ttl.default_ttl. */
  ttlMinutes?: number;
}

export interface SearchThreadsInput extends ThreadFilter {
  limit: number;
  offset: number;
  sortBy?: ThreadSortField;
  sortOrder?: SortOrder;
  /** alias → path: each thread found also carries `extracted` (domain/thread-extract.ts). */
  extract?: Record<string, string>;
}

/** The value `threads:search` handlers receive, in LangGraph's wire names. */
function searchRequest(filter: ThreadFilter, page: { limit?: number; offset?: number }): Record<string, unknown> {
  return { metadata: filter.metadata, values: filter.values, status: filter.status, ids: filter.ids, ...page };
}

function requireThreadId(threadId: string): string {
  if (!isUuid(threadId)) throw new NotFoundError(`Thread '${threadId}' not found: thread ids are UUIDs`);
  return threadId.toLowerCase();
}

/**
 * The thread, if it exists and its metadata is within the caller's scope: a thread the caller may
 * not see answers exactly like one that does not exist.
 */
export async function loadThread(
  manager: EntityManager,
  threadId: string,
  options: { lock?: boolean; scope?: MetadataScope } = {},
): Promise<Thread> {
  const thread = await selectThread(manager, requireThreadId(threadId), options.scope ?? UNRESTRICTED, options);
  if (!thread) throw new NotFoundError(`Thread '${threadId}' not found`);
  return thread;
}

/** Supersteps are applied by the nodes of the thread's graph, so it must name a deployed one. */
function requireDeployedGraph(ctx: ServiceContext, metadata: JsonObject | undefined): void {
  const graphId: unknown = metadata?.graph_id;
  if (typeof graphId !== "string" || graphId.length === 0) {
    throw new InvalidInputError("supersteps need metadata.graph_id (the SDK's graphId): the graph that applies them");
  }
  if (!ctx.graphs.has(graphId)) {
    const deployed = ctx.graphs.names().join(", ");
    throw new InvalidInputError(`metadata.graph_id: graph '${graphId}' is not deployed; deployed graphs: ${deployed}`);
  }
}

/** Deletes a thread within `scope` with its checkpoints (its runs and crons go by foreign key). */
async function removeThread(ctx: ServiceContext, threadId: string, scope: MetadataScope): Promise<void> {
  const runIds = await withTransaction(ctx.db, async (manager) => {
    const thread = await loadThread(manager, threadId, { lock: true, scope });
    const active = await selectActiveRunIds(manager, { statuses: ["pending", "running"], threadId: thread.threadId });
    await deleteThreadCheckpoints(manager, [thread.threadId]);
    await deleteThread(manager, thread.threadId);
    return active;
  });
  // Its runs went with it (foreign key); workers still executing one must stop, and waiters end.
  announceRunsDeletedWithThread(ctx, threadId.toLowerCase(), runIds);
}

export const threadsService = {
  async create(ctx: ServiceContext, input: CreateThreadInput): Promise<Thread> {
    if (input.threadId !== undefined && !isUuid(input.threadId)) {
      throw new InvalidInputError(`thread_id must be a UUID, got '${input.threadId}'`);
    }
    validateTtlMinutes(input.ttlMinutes);
    const request = { thread_id: input.threadId, metadata: { ...(input.metadata ?? {}) }, if_exists: input.ifExists };
    const scope = await scopeOf(ctx, "threads", "create", request);
    input = { ...input, metadata: stampedMetadata(request) ?? {} };
    const supersteps = input.supersteps?.length ? input.supersteps : null;
    if (supersteps) requireDeployedGraph(ctx, input.metadata);
    const now = ctx.now();
    const thread: Thread = {
      threadId: input.threadId?.toLowerCase() ?? newId(),
      createdAt: now,
      updatedAt: now,
      stateUpdatedAt: now,
      metadata: input.metadata ?? {},
      status: "idle",
      config: {},
      values: null,
      interrupts: {},
      error: null,
      ttlMinutes: input.ttlMinutes ?? ctx.threadTtl?.defaultTtlMinutes ?? null,
    };
    const sealed = await sealFields(ctx, "thread", { metadata: thread.metadata });
    requireScopeKeysInClear(scope, thread.metadata, sealed.fields.metadata);
    thread.encryptionContext = sealed.encryptionContext;
    // One statement, shared with concurrent creations (db/sql/insert-threads.ts).
    const inserted = await ctx.db.threadInserts.call({ ...thread, metadata: sealed.fields.metadata });
    if (!inserted) {
      if (input.ifExists === "do_nothing") return openThread(ctx, await loadThread(ctx.db.dataSource.manager, thread.threadId, { scope }));
      throw new ConflictError(`Thread '${thread.threadId}' already exists`);
    }
    if (!supersteps) return thread;
    try {
      return await threadStateService.applySupersteps(ctx, thread.threadId, supersteps);
    } catch (error) {
      // All or nothing: a thread whose seeding failed is not left behind half-seeded.
      await removeThread(ctx, thread.threadId, UNRESTRICTED);
      throw error;
    }
  },

  async get(ctx: ServiceContext, threadId: string): Promise<Thread> {
    const scope = await scopeOf(ctx, "threads", "read", { thread_id: threadId });
    return openThread(ctx, await loadThread(ctx.db.dataSource.manager, threadId, { scope }));
  },

  /** For DataLoaders: results in key order, null where a thread does not exist. */
  async getMany(ctx: ServiceContext, threadIds: readonly string[]): Promise<(Thread | null)[]> {
    const valid = threadIds.filter(isUuid);
    const scope = await scopeOf(ctx, "threads", "read", { thread_ids: valid });
    const found = valid.length ? await selectThreadsByIds(ctx.db.dataSource.manager, valid, scope) : [];
    const opened = await Promise.all(found.map((thread) => openThread(ctx, thread)));
    return inKeyOrder(threadIds, opened, (thread) => thread.threadId);
  },

  /**
   * Merges the given metadata into the thread's (keys given win; others stay). A given
   * `ttlMinutes` replaces the thread's TTL (counted from this update).
   */
  async update(ctx: ServiceContext, threadId: string, input: { metadata?: JsonObject; ttlMinutes?: number }): Promise<Thread> {
    validateTtlMinutes(input.ttlMinutes);
    const request = { thread_id: threadId, metadata: input.metadata ? { ...input.metadata } : undefined };
    const scope = await scopeOf(ctx, "threads", "update", request);
    input = { ...input, metadata: stampedMetadata(request) };
    if (!ctx.encryption) {
      // Stored in clear: PostgreSQL merges the keys (jsonb ||, the same shallow merge as below)
      // in one statement instead of a locked read and a write in a transaction.
      const changes = { metadata: input.metadata ?? {}, ttlMinutes: input.ttlMinutes };
      const merged = await withRetry(
        () => mergeThreadMetadata(ctx.db.dataSource.manager, { threadId: requireThreadId(threadId), scope }, changes, ctx.now()),
        { retryOn: "rolled-back" },
      );
      if (!merged) throw new NotFoundError(`Thread '${threadId}' not found`);
      return merged;
    }
    // Sealed metadata is merged here, opened: under the row's lock, then sealed again.
    return withTransaction(ctx.db, async (manager) => {
      const thread = await openThread(ctx, await loadThread(manager, threadId, { lock: true, scope }));
      const updated: Thread = {
        ...thread,
        metadata: { ...thread.metadata, ...(input.metadata ?? {}) },
        updatedAt: ctx.now(),
        ...(input.ttlMinutes !== undefined ? { ttlMinutes: input.ttlMinutes } : {}),
      };
      // Sealed whole with the thread's own context: every key of a row is opened with one context.
      const sealed = await sealFields(ctx, "thread", { metadata: updated.metadata, values: updated.values }, thread.encryptionContext);
      requireScopeKeysInClear(scope, updated.metadata, sealed.fields.metadata);
      await updateThread(manager, thread.threadId, {
        ...sealed.fields,
        ttlMinutes: updated.ttlMinutes ?? null,
        encryptionContext: sealed.encryptionContext,
        updatedAt: updated.updatedAt,
      });
      return { ...updated, encryptionContext: sealed.encryptionContext };
    });
  },

  /** Deletes the thread with its checkpoints (and, through foreign keys, its runs and crons). */
  async delete(ctx: ServiceContext, threadId: string): Promise<void> {
    const scope = await scopeOf(ctx, "threads", "delete", { thread_id: threadId });
    await removeThread(ctx, threadId, scope);
  },

  /** Used when an assistant is deleted with delete_threads: its threads name it in metadata. */
  async deleteCreatedByAssistant(manager: EntityManager, assistantId: string): Promise<void> {
    const threadIds = await deleteThreadsOfAssistant(manager, assistantId);
    if (threadIds.length) await deleteThreadCheckpoints(manager, threadIds);
  },

  /**
   * For DataLoaders: the newest `perAssistant` threads of each assistant (found through
   * metadata.assistant_id, as runs record it), in key order. One query for all keys.
   */
  async listCreatedByAssistants(
    ctx: ServiceContext,
    assistantIds: readonly string[],
    perAssistant: number,
  ): Promise<Thread[][]> {
    const ids = assistantIds.map((id) => id.toLowerCase());
    const scope = await scopeOf(ctx, "threads", "search", { metadata: {} });
    const threads = await selectThreadsOfAssistants(ctx.db.dataSource.manager, ids, perAssistant, scope);
    const opened = await Promise.all(threads.map((thread) => openThread(ctx, thread)));
    return ids.map((id) => opened.filter((thread) => thread.metadata.assistant_id === id));
  },

  async search(ctx: ServiceContext, input: SearchThreadsInput): Promise<Array<Thread & { extracted?: JsonObject }>> {
    const { limit, offset, sortBy = "created_at", sortOrder = "desc", extract, ...filter } = input;
    validateThreadFilter(filter);
    const paths = extract === undefined ? undefined : parseExtractPaths(extract);
    const scope = await scopeOf(ctx, "threads", "search", searchRequest(filter, { limit, offset }));
    const found = await searchThreads(ctx.db.dataSource.manager, { ...filter, scope }, { limit, offset, sortBy, sortOrder });
    const threads = await Promise.all(found.map((thread) => openThread(ctx, thread)));
    return paths === undefined ? threads : threads.map((thread) => ({ ...thread, extracted: extractFromThread(thread, paths) }));
  },

  async count(ctx: ServiceContext, filter: ThreadFilter): Promise<number> {
    validateThreadFilter(filter);
    const scope = await scopeOf(ctx, "threads", "search", searchRequest(filter, {}));
    return countThreads(ctx.db.dataSource.manager, { ...filter, scope });
  },

  /**
   * A new thread with the same metadata, config, values and full checkpoint history. Authorized
   * as a read of the source and a create of the copy (whose handler may stamp its metadata); a
   * source the caller may not read answers 409, as LangGraph's server does.
   */
  async copy(ctx: ServiceContext, threadId: string): Promise<Thread> {
    const readScope = await scopeOf(ctx, "threads", "read", { thread_id: threadId });
    const stored = await loadThread(ctx.db.dataSource.manager, threadId, { scope: readScope }).catch((error: unknown) => {
      if (error instanceof NotFoundError) throw new ConflictError(`Thread '${threadId}' not found; nothing to copy`);
      throw error;
    });
    const source = await openThread(ctx, stored);
    const copyId = newId();
    const request = { thread_id: copyId, metadata: { ...source.metadata } };
    await scopeOf(ctx, "threads", "create", request);
    const metadata = stampedMetadata(request) ?? {};
    // The copy is the caller's new row: sealed with the caller's context, not the source's.
    const sealed = await sealFields(ctx, "thread", { metadata, values: source.values });
    return withTransaction(ctx.db, async (manager) => {
      const now = ctx.now();
      const copy: Thread = { ...source, metadata, threadId: copyId, createdAt: now, updatedAt: now, encryptionContext: sealed.encryptionContext };
      const [inserted] = await insertThreads(manager, [{ ...copy, ...sealed.fields }]);
      if (!inserted) throw new ConflictError(`Thread '${copyId}' already exists`);
      await copyThreadCheckpoints(manager, source.threadId, copy.threadId);
      return copy;
    });
  },
};

/** Thread ids to filter on are UUIDs (the column's type): anything else is INVALID_INPUT naming it, not a failed cast. */
/** Alternatives a metadataAnyOf search may list: enough for a few ambiguous typed values. */
export const MAX_METADATA_ALTERNATIVES = 64;

function validateThreadFilter({ ids, metadataAnyOf }: ThreadFilter): void {
  const index = ids?.findIndex((id) => !isUuid(id)) ?? -1;
  if (index >= 0) throw new InvalidInputError(`ids[${index}] must be a UUID, got '${ids![index]!.slice(0, 40)}'`);
  if (metadataAnyOf !== undefined && (metadataAnyOf.length === 0 || metadataAnyOf.length > MAX_METADATA_ALTERNATIVES)) {
    throw new InvalidInputError(`metadataAnyOf must list 1 to ${MAX_METADATA_ALTERNATIVES} objects, got ${metadataAnyOf.length}`);
  }
}
