import type { EntityManager } from "typeorm";
import { activateAssistantVersion, listAssistantVersions, listVersionsOfAssistants } from "../db/sql/assistant-versions.js";
import { deleteAssistant } from "../db/sql/delete-assistant.js";
import { countAssistants, searchAssistants, type AssistantFilter } from "../db/sql/search-assistants.js";
import { selectAssistant, selectAssistantsByIds } from "../db/sql/select-assistant.js";
import { ASSISTANTS_CHANGED_CHANNEL } from "../db/change-announcer.js";
import { withRetry } from "../db/retry.js";
import { withTransaction } from "../db/tx.js";
import {
  SYSTEM_CREATOR,
  type Assistant,
  type AssistantSortField,
  type AssistantVersion,
  type SortOrder,
} from "../domain/assistant.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../domain/errors.js";
import { isUuid, newId, systemAssistantId } from "../domain/ids.js";
import type { JsonObject } from "../domain/json.js";
import { openAssistant, requireScopeKeysInClear, sealAssistant, sealFields } from "./field-encryption.js";
import type { ServiceContext } from "./service-context.js";
import { graphsService } from "./graphs.service.js";
import { scopeOf, stampedMetadata } from "./access-scope.js";
import { inKeyOrder } from "./key-order.js";
import { threadsService } from "./threads.service.js";

export interface CreateAssistantInput {
  graphId: string;
  assistantId?: string;
  ifExists?: "raise" | "do_nothing";
  name?: string;
  description?: string | null;
  config?: JsonObject;
  context?: JsonObject;
  metadata?: JsonObject;
}

export interface UpdateAssistantInput {
  graphId?: string;
  name?: string;
  description?: string | null;
  config?: JsonObject;
  /** Exactly the new version's context: omitted → {} (nothing is taken from earlier versions). */
  context?: JsonObject;
  /** Exactly the new version's metadata: omitted → {}. */
  metadata?: JsonObject;
}

export interface SearchAssistantsInput extends AssistantFilter {
  limit: number;
  offset: number;
  sortBy?: AssistantSortField;
  sortOrder?: SortOrder;
}

const DEFAULT_NAME = "Untitled";

/** LangGraph Platform's wording, which clients match on (`/No assistant found for/`). */
export function noAssistantFound(assistantIdOrGraph: string): NotFoundError {
  return new NotFoundError(
    `No assistant found for "${assistantIdOrGraph}". Make sure the assistant ID is for a valid assistant or a valid graph ID.`,
  );
}

/** Accepts an assistant id or a deployed graph's name (→ that graph's system assistant). */
export function resolveAssistantId(ctx: ServiceContext, assistantIdOrGraph: string): string {
  if (ctx.graphs.has(assistantIdOrGraph)) return systemAssistantId(assistantIdOrGraph);
  if (isUuid(assistantIdOrGraph)) return assistantIdOrGraph.toLowerCase();
  throw noAssistantFound(assistantIdOrGraph);
}

function requireDeployedGraph(ctx: ServiceContext, graphId: string): void {
  if (!ctx.graphs.has(graphId)) {
    throw new InvalidInputError(`Graph '${graphId}' is not deployed; deployed graphs: ${ctx.graphs.names().join(", ")}`);
  }
}

function assistantNotFound(assistantId: string): NotFoundError {
  return new NotFoundError(`Assistant '${assistantId}' not found`);
}

/**
 * The assistant a run or cron uses, with no authorization of its own: the run is authorized as
 * a `threads:create_run` (as on LangGraph's server), so a user may run a graph's system assistant
 * without being allowed to read or edit it.
 */
export async function findAssistantForRun(ctx: ServiceContext, assistantIdOrGraph: string): Promise<Assistant> {
  const assistantId = resolveAssistantId(ctx, assistantIdOrGraph);
  const assistant = await ctx.db.assistantReads.call({ assistantId, scope: {} });
  if (!assistant) throw noAssistantFound(assistantIdOrGraph);
  return openAssistant(ctx, assistant);
}

/** The value `assistants:create` / `assistants:update` handlers receive, in LangGraph's wire names. */
function assistantRequest(assistantId: string, input: UpdateAssistantInput): Record<string, unknown> {
  return {
    assistant_id: assistantId,
    graph_id: input.graphId,
    config: input.config,
    context: input.context,
    metadata: { ...(input.metadata ?? {}) },
    name: input.name,
    description: input.description,
  };
}

/**
 * Every assistant write calls this once it committed (creation, update, version switch, deletion,
 * data reset): MCP sessions of this process tell their clients at once, other processes' within
 * ~50 ms, one NOTIFY per burst of writes (db/change-announcer.ts).
 */
export function announceAssistantsChanged(ctx: ServiceContext): void {
  ctx.streaming.signals.assistantsChanged();
  ctx.db.announceChange(ASSISTANTS_CHANGED_CHANNEL);
}

/** An assistant's graph, for a caller allowed to read the assistant. */
async function readableGraphId(ctx: ServiceContext, assistantIdOrGraph: string): Promise<string> {
  return (await assistantsService.get(ctx, assistantIdOrGraph)).graphId;
}

export const assistantsService = {
  async create(ctx: ServiceContext, input: CreateAssistantInput): Promise<Assistant> {
    requireDeployedGraph(ctx, input.graphId);
    if (input.assistantId !== undefined && !isUuid(input.assistantId)) {
      throw new InvalidInputError(`assistant_id must be a UUID, got '${input.assistantId}'`);
    }
    const assistantId = input.assistantId?.toLowerCase() ?? newId();
    const request = { ...assistantRequest(assistantId, input), if_exists: input.ifExists };
    const scope = await scopeOf(ctx, "assistants", "create", request);
    input = { ...input, metadata: stampedMetadata(request) ?? {} };
    const now = ctx.now();
    const assistant: Assistant = {
      assistantId,
      graphId: input.graphId,
      name: input.name ?? DEFAULT_NAME,
      description: input.description ?? null,
      config: input.config ?? {},
      context: input.context ?? {},
      metadata: input.metadata ?? {},
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    const sealed = await sealAssistant(ctx, assistant);
    requireScopeKeysInClear(scope, assistant.metadata, sealed.metadata);
    // One statement, shared with concurrent creations (db/sql/insert-assistants.ts): the
    // assistant and its version 1, or neither.
    const inserted = await withRetry(() => ctx.db.assistantInserts.call(sealed), { retryOn: "rolled-back" });
    if (!inserted) {
      if (input.ifExists !== "do_nothing") throw new ConflictError(`Assistant '${assistantId}' already exists`);
      const existing = await ctx.db.assistantReads.call({ assistantId, scope });
      if (!existing) throw assistantNotFound(assistantId);
      return openAssistant(ctx, existing);
    }
    const created = { ...assistant, encryptionContext: sealed.encryptionContext };
    announceAssistantsChanged(ctx);
    return created;
  },

  async get(ctx: ServiceContext, assistantIdOrGraph: string): Promise<Assistant> {
    const assistantId = resolveAssistantId(ctx, assistantIdOrGraph);
    const scope = await scopeOf(ctx, "assistants", "read", { assistant_id: assistantId });
    const assistant = await ctx.db.assistantReads.call({ assistantId, scope });
    if (!assistant) throw assistantNotFound(assistantId);
    return openAssistant(ctx, assistant);
  },

  /** For DataLoaders: results in key order, null where an assistant does not exist. */
  async getMany(ctx: ServiceContext, assistantIds: readonly string[]): Promise<(Assistant | null)[]> {
    const valid = assistantIds.filter(isUuid);
    const scope = await scopeOf(ctx, "assistants", "read", { assistant_ids: valid });
    const found = valid.length ? await selectAssistantsByIds(ctx.db.dataSource.manager, valid, scope) : [];
    const opened = await Promise.all(found.map((assistant) => openAssistant(ctx, assistant)));
    return inKeyOrder(assistantIds, opened, (assistant) => assistant.assistantId);
  },

  /**
   * Always creates version N+1 (N = the highest it ever had) and makes it active, in one
   * statement shared with concurrent updates (db/sql/update-assistants.ts): a PATCH took seven
   * round trips in a transaction.
   */
  async update(ctx: ServiceContext, assistantIdOrGraph: string, input: UpdateAssistantInput): Promise<Assistant> {
    const assistantId = resolveAssistantId(ctx, assistantIdOrGraph);
    if (input.graphId !== undefined) requireDeployedGraph(ctx, input.graphId);
    const request = assistantRequest(assistantId, input);
    const scope = await scopeOf(ctx, "assistants", "update", request);
    const stamped = stampedMetadata(request);
    const plain = {
      context: input.context ?? {},
      metadata: (stamped && Object.keys(stamped).length > 0 ? stamped : input.metadata) ?? {},
    };
    const manager = ctx.db.dataSource.manager;
    // With encryption on, the new fields are sealed with the context the assistant's earlier
    // versions were (every version opens with one context): read it first. It only ever changes
    // from none to one, when a concurrent update seals first; the statement then matches no row
    // and one more pass reads the context that update stored.
    for (let pass = 1; pass <= 2; pass++) {
      const stored = ctx.encryption ? await selectAssistant(manager, assistantId, scope) : undefined;
      if (stored === null) break;
      const sealed = await sealFields(ctx, "assistant", plain, stored?.encryptionContext);
      requireScopeKeysInClear(scope, plain.metadata, sealed.fields.metadata);
      const saved = await withRetry(
        () =>
          ctx.db.assistantUpdates.call({
            assistantId,
            scope,
            sealedWith: stored ? (stored.encryptionContext ?? null) : undefined,
            changes: { ...input, ...sealed.fields, encryptionContext: sealed.encryptionContext },
            now: ctx.now(),
          }),
        { retryOn: "rolled-back" },
      );
      if (saved) {
        announceAssistantsChanged(ctx);
        return { ...saved, ...plain };
      }
      if (!ctx.encryption) break;
    }
    throw assistantNotFound(assistantId);
  },

  /** Makes an existing version active: the assistant's fields become that version's. */
  async setActiveVersion(ctx: ServiceContext, assistantIdOrGraph: string, version: number): Promise<Assistant> {
    const assistantId = resolveAssistantId(ctx, assistantIdOrGraph);
    const scope = await scopeOf(ctx, "assistants", "update", { assistant_id: assistantId, version });
    // One statement (db/sql/assistant-versions.ts); only when it changed nothing, a read says why.
    const manager = ctx.db.dataSource.manager;
    const activated = await withRetry(() => activateAssistantVersion(manager, { assistantId, scope, version }, ctx.now()), {
      retryOn: "rolled-back",
    });
    if (!activated) {
      if (!(await selectAssistant(manager, assistantId, scope))) throw assistantNotFound(assistantId);
      throw new NotFoundError(`Assistant '${assistantId}' has no version ${version}`);
    }
    announceAssistantsChanged(ctx);
    return openAssistant(ctx, activated);
  },

  async listVersions(
    ctx: ServiceContext,
    assistantIdOrGraph: string,
    input: { metadata?: JsonObject; limit: number; offset: number },
  ): Promise<AssistantVersion[]> {
    const assistantId = resolveAssistantId(ctx, assistantIdOrGraph);
    const manager = ctx.db.dataSource.manager;
    const scope = await scopeOf(ctx, "assistants", "read", { assistant_id: assistantId });
    const versions = await listAssistantVersions(manager, assistantId, scope, input);
    // No version: the assistant may be missing or hidden (404), or no version matched the filter.
    if (versions.length === 0 && !(await selectAssistant(manager, assistantId, scope))) throw assistantNotFound(assistantId);
    return Promise.all(versions.map((version) => openAssistant(ctx, version, "assistant_versions")));
  },

  /** For DataLoaders: every version of each assistant (newest first), in key order. */
  async listVersionsOfMany(ctx: ServiceContext, assistantIds: readonly string[]): Promise<AssistantVersion[][]> {
    const scope = await scopeOf(ctx, "assistants", "read", { assistant_ids: assistantIds });
    const versions = await listVersionsOfAssistants(ctx.db.dataSource.manager, assistantIds.filter(isUuid), scope);
    const opened = await Promise.all(versions.map((version) => openAssistant(ctx, version, "assistant_versions")));
    return assistantIds.map((id) => opened.filter((version) => version.assistantId === id.toLowerCase()));
  },

  async search(ctx: ServiceContext, input: SearchAssistantsInput): Promise<Assistant[]> {
    const { limit, offset, sortBy = "created_at", sortOrder = "desc", ...filter } = input;
    const scope = await scopeOf(ctx, "assistants", "search", { graph_id: filter.graphId, metadata: filter.metadata, limit, offset });
    const found = await searchAssistants(ctx.db.dataSource.manager, { ...filter, scope }, { limit, offset, sortBy, sortOrder });
    return Promise.all(found.map((assistant) => openAssistant(ctx, assistant)));
  },

  async count(ctx: ServiceContext, filter: AssistantFilter): Promise<number> {
    const scope = await scopeOf(ctx, "assistants", "search", { graph_id: filter.graphId, metadata: filter.metadata });
    return countAssistants(ctx.db.dataSource.manager, { ...filter, scope });
  },

  /** Deletes every version; with deleteThreads also the threads the assistant created. */
  async delete(ctx: ServiceContext, assistantIdOrGraph: string, options: { deleteThreads?: boolean } = {}) {
    const assistantId = resolveAssistantId(ctx, assistantIdOrGraph);
    const scope = await scopeOf(ctx, "assistants", "delete", { assistant_id: assistantId });
    // The assistant goes with its versions, runs and crons (foreign keys) in one statement.
    const deleteOrFail = async (manager: EntityManager) => {
      if (!(await deleteAssistant(manager, assistantId, scope))) throw assistantNotFound(assistantId);
    };
    if (options.deleteThreads) {
      // With the threads it created, in one transaction: none go when the assistant is not there.
      await withTransaction(ctx.db, async (manager) => {
        await deleteOrFail(manager);
        await threadsService.deleteCreatedByAssistant(manager, assistantId);
      });
    } else {
      await withRetry(() => deleteOrFail(ctx.db.dataSource.manager), { retryOn: "rolled-back" });
    }
    announceAssistantsChanged(ctx);
  },

  /** One assistant per deployed graph, with a stable id; existing ones are left as they are. */
  async ensureSystemAssistants(ctx: ServiceContext): Promise<void> {
    for (const graphId of ctx.graphs.names()) {
      const { config, context } = ctx.graphs.systemAssistantDefaults(graphId);
      await assistantsService.create(ctx, {
        graphId,
        config,
        context,
        assistantId: systemAssistantId(graphId),
        ifExists: "do_nothing",
        name: graphId,
        metadata: { created_by: SYSTEM_CREATOR },
      });
    }
  },

  async getGraphDrawing(ctx: ServiceContext, assistantIdOrGraph: string, options: { xray?: boolean | number }) {
    return graphsService.getDrawing(ctx, await readableGraphId(ctx, assistantIdOrGraph), options);
  },

  async getSchemas(ctx: ServiceContext, assistantIdOrGraph: string) {
    return graphsService.getSchemas(ctx, await readableGraphId(ctx, assistantIdOrGraph));
  },

  async getSubgraphs(
    ctx: ServiceContext,
    assistantIdOrGraph: string,
    options: { namespace?: string; recurse?: boolean },
  ) {
    return graphsService.getSubgraphs(ctx, await readableGraphId(ctx, assistantIdOrGraph), options);
  },
};
