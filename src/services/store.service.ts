import { authorize } from "../auth/authorize.js";
import { EmbeddingProviderError } from "../db/hangar-store.js";
import { matchesAuthFilters, type AuthFilters } from "../domain/auth-filter.js";
import { ForbiddenError, InvalidInputError, UnavailableError } from "../domain/errors.js";
import {
  parseStoreFilter,
  validateIndexFields,
  validateNamespace,
  validateNamespacePattern,
  validatePageBound,
  validateStoreKey,
  validateStoreValue,
  type StoreItem,
} from "../domain/store.js";
import { MAX_INT4, validateTtlMinutes, validateWholeNumber } from "../domain/input-bounds.js";
import type { ServiceContext } from "./service-context.js";

/** Inputs arrive as parsed JSON (REST body, GraphQL JSON scalars): the service checks them. */
export interface PutStoreItemInput {
  namespace: unknown;
  key: unknown;
  value: unknown;
  /** false, null or field paths. */
  index?: unknown;
  /** Minutes; null never expires; omitted: the deployment's default. */
  ttl?: unknown;
}

export interface StoreItemAddress {
  namespace: unknown;
  key: unknown;
}

export interface SearchStoreItemsInput {
  namespacePrefix?: unknown;
  filter?: unknown;
  limit?: unknown;
  offset?: unknown;
  query?: unknown;
  refreshTtl?: boolean;
}

export interface ListStoreNamespacesInput {
  prefix?: unknown;
  suffix?: unknown;
  maxDepth?: unknown;
  limit?: unknown;
  offset?: unknown;
}

/**
 * The Store as the API sees it: what graphs read and write through `runtime.store` (the same
 * HangarStore, db/hangar-store.ts). Every call is validated, then authorized once (`store`
 * resource of custom auth); the handler's filters are applied in SQL.
 */
export const storeService = {
  /** Creates or replaces an item. Refused (403) when it, or the item it replaces, is outside the caller's filters. */
  async put(ctx: ServiceContext, input: PutStoreItemInput): Promise<StoreItem> {
    const request = {
      namespace: validateNamespace(input.namespace, "namespace"),
      key: validateStoreKey(input.key),
      value: validateStoreValue(input.value),
    };
    const index = validateIndexFields(input.index);
    const ttlMinutes = validateTtlMinutes(input.ttl);
    const access = await authorize(ctx, "store", "put", request);
    const namespace = validateNamespace(request.namespace, "namespace");
    const key = validateStoreKey(request.key);
    const value = validateStoreValue(request.value);
    if (!matchesAuthFilters({ ...value, namespace, key }, access)) throw new ForbiddenError("Not authorized to write this store item");
    const encryptionContext = ctx.encryption ? await ctx.encryption.contextMetadata() : undefined;
    const written = await withEmbeddingErrors(() => ctx.db.store.putItem({ namespace, key, value, index, ttlMinutes, access, encryptionContext }));
    if (!written) throw new ForbiddenError("Not authorized to replace this store item");
    return written;
  },

  /** The item, or null when there is none (or none the caller may see). */
  async get(ctx: ServiceContext, input: StoreItemAddress & { refreshTtl?: boolean }): Promise<StoreItem | null> {
    const request = { namespace: validateNamespace(input.namespace, "namespace"), key: validateStoreKey(input.key) };
    const access = await authorize(ctx, "store", "get", request);
    return ctx.db.store.getItem({
      namespace: validateNamespace(request.namespace, "namespace"),
      key: validateStoreKey(request.key),
      refreshTtl: input.refreshTtl,
      access,
    });
  },

  /** Deletes the item; deleting one that is not there (or not the caller's) does nothing. */
  async delete(ctx: ServiceContext, input: StoreItemAddress): Promise<void> {
    const request = { namespace: validateNamespace(input.namespace, "namespace"), key: validateStoreKey(input.key) };
    const access = await authorize(ctx, "store", "delete", request);
    await ctx.db.store.deleteItem({
      namespace: validateNamespace(request.namespace, "namespace"),
      key: validateStoreKey(request.key),
      access,
    });
  },

  /** Items under a namespace prefix, filtered; ranked by similarity when `query` is given. */
  async search(ctx: ServiceContext, input: SearchStoreItemsInput): Promise<StoreItem[]> {
    const search = await authorizeSearch(ctx, input);
    return withEmbeddingErrors(() => ctx.db.store.searchItems({ ...search, refreshTtl: input.refreshTtl }));
  },

  /** How many items `search` finds without paging (the same authorization). */
  async count(ctx: ServiceContext, input: Omit<SearchStoreItemsInput, "limit" | "offset">): Promise<number> {
    return ctx.db.store.countItems(await authorizeSearch(ctx, input));
  },

  /** Distinct namespaces matching the prefix and suffix (`*` is any label), cut to max_depth. */
  async listNamespaces(ctx: ServiceContext, input: ListStoreNamespacesInput): Promise<string[][]> {
    return ctx.db.store.listNamespacePaths(await authorizeNamespaceListing(ctx, input));
  },

  /** How many namespaces `listNamespaces` lists without paging (the same authorization). */
  async countNamespaces(ctx: ServiceContext, input: Omit<ListStoreNamespacesInput, "limit" | "offset">): Promise<number> {
    return ctx.db.store.countNamespaces(await authorizeNamespaceListing(ctx, input));
  },
};

/** Validates a search, asks the `store:search` handler, and re-reads what it may have rewritten. */
async function authorizeSearch(ctx: ServiceContext, input: SearchStoreItemsInput) {
  const request = {
    namespace: validateNamespace(input.namespacePrefix ?? [], "namespace_prefix", { allowEmpty: true }),
    filter: input.filter ?? null,
    limit: validatePageBound(input.limit, "limit", 10),
    offset: validatePageBound(input.offset, "offset", 0),
    query: input.query ?? null,
  };
  parseStoreFilter(request.filter);
  if (request.query !== null && typeof request.query !== "string") throw new InvalidInputError("query must be a string");
  if (request.query !== null && !ctx.db.store.indexConfig) {
    throw new InvalidInputError("query needs semantic search, which this deployment does not configure (langgraph.json store.index)");
  }
  const access = await authorize(ctx, "store", "search", request);
  return {
    namespacePrefix: validateNamespace(request.namespace, "namespace_prefix", { allowEmpty: true }),
    filter: parseStoreFilter(request.filter),
    limit: validatePageBound(request.limit, "limit", 10),
    offset: validatePageBound(request.offset, "offset", 0),
    query: typeof request.query === "string" ? request.query : undefined,
    access,
  };
}

/** Validates a namespace listing, asks the `store:list_namespaces` handler, re-reads its rewrite. */
async function authorizeNamespaceListing(ctx: ServiceContext, input: ListStoreNamespacesInput) {
  const request = {
    namespace: validateNamespacePattern(input.prefix ?? [], "prefix"),
    suffix: validateNamespacePattern(input.suffix ?? [], "suffix"),
    max_depth: input.maxDepth ?? null,
    limit: validatePageBound(input.limit, "limit", 100),
    offset: validatePageBound(input.offset, "offset", 0),
  };
  validateMaxDepth(request.max_depth);
  const access: AuthFilters | undefined = await authorize(ctx, "store", "list_namespaces", request);
  return {
    prefix: validateNamespacePattern(request.namespace, "prefix"),
    suffix: validateNamespacePattern(request.suffix, "suffix"),
    maxDepth: validateMaxDepth(request.max_depth),
    limit: validatePageBound(request.limit, "limit", 100),
    offset: validatePageBound(request.offset, "offset", 0),
    access,
  };
}

function validateMaxDepth(value: unknown): number | undefined {
  if (value === null || value === undefined) return undefined;
  return validateWholeNumber(value, "max_depth", { min: 1, max: MAX_INT4 });
}

/** An embeddings provider failure is the provider's outage, not ours: 503 naming it. */
async function withEmbeddingErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof EmbeddingProviderError) throw new UnavailableError(error.message, { cause: error });
    throw error;
  }
}
