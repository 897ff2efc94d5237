import {
  BaseStore,
  getTextAtPath,
  type Item,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchItem,
  type SearchOperation,
} from "@langchain/langgraph-checkpoint";
import type pg from "pg";
import type { AuthFilters } from "../domain/auth-filter.js";
import type { Logger } from "../logger.js";
import { parseStoreFilter, type StoreFilterCondition, type StoreItem } from "../domain/store.js";
import { countStoreItems } from "./sql/count-store-items.js";
import { countStoreNamespaces } from "./sql/count-store-namespaces.js";
import { deleteExpiredStoreItems } from "./sql/delete-expired-store-items.js";
import { deleteStoreItem } from "./sql/delete-store-item.js";
import { getStoreItem } from "./sql/get-store-item.js";
import { listStoreNamespaces } from "./sql/list-store-namespaces.js";
import { isVectorExtensionAvailable, prepareStoreVectorIndex } from "./sql/prepare-store-vector-index.js";
import { searchStoreItems } from "./sql/search-store-items.js";
import { searchStoreItemsNearest } from "./sql/search-store-items-nearest.js";
import { toStoreItem, type StoreItemRow, type StoreNamespaceListing } from "./sql/store-sql.js";
import type { JsonFieldCipher } from "./json-field-cipher.js";
import { upsertStoreItem } from "./sql/upsert-store-item.js";
import { replaceSealedField } from "./sql/replace-sealed-field.js";
import type { JsonObject } from "../domain/json.js";

/** What semantic search needs of an embeddings model (LangChain's Embeddings has both). */
export interface StoreEmbeddings {
  embedDocuments(texts: string[]): Promise<number[][]>;
  embedQuery(text: string): Promise<number[]>;
}

/** langgraph.json `store.index`, resolved. */
export interface StoreIndexConfig {
  embeddings: StoreEmbeddings;
  dims: number;
  /** Field paths embedded by default; `$` is the whole value. */
  fields: string[];
  /** How the deployment named its embeddings (`openai:text-embedding-3-small`, `./embed.ts:embed`). */
  provider: string;
}

/** langgraph.json `store.ttl`, in minutes. */
export interface StoreTtlConfig {
  defaultTtlMinutes: number | null;
  refreshOnRead: boolean;
}

export interface HangarStoreOptions {
  index?: StoreIndexConfig;
  ttl?: StoreTtlConfig;
  /** langgraph.json `encryption` JSON handlers: item values are sealed at rest (db/json-field-cipher.ts). */
  cipher?: JsonFieldCipher | null;
}

/** The embeddings provider failed or answered vectors of the wrong size; nothing was written. */
export class EmbeddingProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`Embeddings provider ${provider} failed: ${message}`, options);
    this.name = "EmbeddingProviderError";
  }
}

export interface StorePutInput {
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  /** undefined: the deployment's fields; false: not indexed; else these field paths. */
  index?: false | string[];
  /** undefined: the deployment's default TTL; null: never expires. */
  ttlMinutes?: number | null;
  access?: AuthFilters;
  /**
   * The caller's encryption context, stored with the item and handed to the handlers. Graphs
   * write through BaseStore's batch without one: their items are sealed with `{}`.
   */
  encryptionContext?: Record<string, unknown>;
}

export interface StoreSearchInput {
  namespacePrefix: string[];
  filter: StoreFilterCondition[];
  limit: number;
  offset: number;
  query?: string;
  refreshTtl?: boolean;
  access?: AuthFilters;
}

/** A namespace listing, as the statements take it (db/sql/store-sql.ts). */
export type StoreNamespacesInput = StoreNamespaceListing;

/**
 * Hangar's Store: LangGraph's public BaseStore contract (what graphs get as `config.store` /
 * `runtime.store`) on the store_items / store_vectors tables of Hangar's migrations, plus the
 * richer calls the API's store service makes (auth filters, TTLs, scores). Both go through the
 * same statements, so what a graph writes is what the API reads, in every process.
 */
export class HangarStore extends BaseStore {
  private readonly index: StoreIndexConfig | undefined;
  private readonly ttl: StoreTtlConfig;
  /** Semantic search through pgvector's HNSW index (true) or the exact scan over float arrays. */
  private hasVectorIndex = false;
  /** pgvector ≥ 0.8: HNSW scans may go on past ef_search until enough rows pass the filters. */
  private hasIterativeScan = false;
  private readonly cipher: JsonFieldCipher | null;

  constructor(
    private readonly client: pg.Pool,
    private readonly log: Logger,
    options: HangarStoreOptions = {},
  ) {
    super();
    this.index = options.index;
    this.ttl = options.ttl ?? { defaultTtlMinutes: null, refreshOnRead: true };
    this.cipher = options.cipher ?? null;
  }

  /**
   * Called after migrations (db/migrate.ts). The tables are the migrations'; what is left is per
   * deployment: with a semantic index configured, pgvector's HNSW index when the database can
   * have the extension, else the exact scan, with a warning naming the extension.
   */
  async setup(): Promise<void> {
    if (!this.index) return;
    if (!(await isVectorExtensionAvailable(this.client))) {
      this.log.warn(
        { extension: "vector" },
        "store semantic search compares every stored vector (exact scan): this PostgreSQL does not have the pgvector extension (`vector`); install it for an HNSW index (see README, Store)",
      );
      return;
    }
    try {
      const version = await prepareStoreVectorIndex(this.client, this.index.dims);
      const [major = 0, minor = 0] = version.split(".").map(Number);
      this.hasIterativeScan = major > 0 || minor >= 8;
      this.hasVectorIndex = true;
      this.log.info({ extension: "vector", version, dims: this.index.dims }, "store semantic search uses pgvector's HNSW index");
    } catch (error) {
      this.log.warn({ err: error, extension: "vector" }, "could not prepare pgvector's HNSW index for the store; semantic search uses the exact scan");
    }
  }

  get indexConfig(): StoreIndexConfig | undefined {
    return this.index;
  }

  /** The item as written; null, writing nothing, when an existing item does not match `access`. */
  async putItem(input: StorePutInput): Promise<StoreItem | null> {
    // Embedded from the plaintext (a vector of ciphertext finds nothing): vectors stay unencrypted.
    const embeddings = await this.embedValue(input.value, input.index);
    const ttlMinutes = input.ttlMinutes === undefined ? this.ttl.defaultTtlMinutes : input.ttlMinutes;
    const encryptionContext = this.cipher ? (input.encryptionContext ?? {}) : null;
    const value =
      this.cipher && encryptionContext && Object.keys(input.value).length > 0
        ? await this.cipher.seal("store", "value", encryptionContext, input.value)
        : input.value;
    const row = await upsertStoreItem(this.client, { ...input, value, encryptionContext, ttlMinutes, embeddings, hasVectorColumn: this.hasVectorIndex });
    return row ? { ...toStoreItem(row), value: input.value } : null;
  }

  async getItem(input: { namespace: string[]; key: string; refreshTtl?: boolean; access?: AuthFilters }): Promise<StoreItem | null> {
    const row = await getStoreItem(this.client, { ...input, refreshTtl: input.refreshTtl ?? this.ttl.refreshOnRead });
    return row ? this.openItem(row) : null;
  }

  async deleteItem(input: { namespace: string[]; key: string; access?: AuthFilters }): Promise<boolean> {
    return deleteStoreItem(this.client, input);
  }

  async searchItems(input: StoreSearchInput): Promise<StoreItem[]> {
    const queryVector = input.query !== undefined && this.index ? await this.embedQuery(this.index, input.query) : undefined;
    const search = { ...input, refreshTtl: input.refreshTtl ?? this.ttl.refreshOnRead };
    const rows =
      queryVector && this.hasVectorIndex
        ? await searchStoreItemsNearest(this.client, { ...search, queryVector }, { iterativeScan: this.hasIterativeScan })
        : await searchStoreItems(this.client, { ...search, queryVector });
    return Promise.all(rows.map((row) => this.openItem(row)));
  }

  /** The item with its value opened with the context stored with it (a value stored in clear is read as it is). */
  private async openItem(row: StoreItemRow): Promise<StoreItem> {
    const item = toStoreItem(row);
    const context = row.encryption_context;
    if (!this.cipher || !context || Object.keys(item.value).length === 0) return item;
    // Replacement ciphertext from decrypt.json (key rotation) is stored without holding up the read.
    const replace = (replacement: JsonObject) => {
      replaceSealedField(this.client, { table: "store_items", key: [item.namespace, item.key] }, "value", item.value, replacement).catch((error: unknown) => this.log.warn({ err: error, key: item.key }, "could not store the replacement ciphertext decrypt.json gave back"));
    };
    return { ...item, value: await this.cipher.open("store", "value", context, item.value, replace) };
  }

  /** How many items searchItems finds without paging (with a query: those with embeddings). */
  async countItems(input: Pick<StoreSearchInput, "namespacePrefix" | "filter" | "access" | "query">): Promise<number> {
    return countStoreItems(this.client, { ...input, embeddedOnly: input.query !== undefined && this.index !== undefined });
  }

  async listNamespacePaths(input: StoreNamespacesInput): Promise<string[][]> {
    return listStoreNamespaces(this.client, input);
  }

  async countNamespaces(input: Omit<StoreNamespacesInput, "limit" | "offset">): Promise<number> {
    return countStoreNamespaces(this.client, input);
  }

  /** Deletes expired items in batches; only one process sweeps at a time (see the statement). */
  async sweepExpired(batchSize = 1000): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await deleteExpiredStoreItems(this.client, batchSize);
      total += deleted;
      if (deleted < batchSize) return total;
    }
  }

  /** LangGraph's batch: the operations in order, each as BaseStore defines it. */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    for (const operation of operations) results.push(await this.runOperation(operation));
    return results as OperationResults<Op>;
  }

  private async runOperation(operation: Operation): Promise<Item | SearchItem[] | string[][] | null | void> {
    if ("value" in operation) return this.runPut(operation);
    if ("namespacePrefix" in operation) return this.runSearch(operation);
    if ("key" in operation) return toItem(await this.getItem({ namespace: operation.namespace, key: operation.key }));
    return this.runListNamespaces(operation);
  }

  private async runPut(operation: PutOperation): Promise<void> {
    if (operation.value === null) {
      await this.deleteItem({ namespace: operation.namespace, key: operation.key });
      return;
    }
    await this.putItem({ namespace: operation.namespace, key: operation.key, value: operation.value, index: operation.index });
  }

  private async runSearch(operation: SearchOperation): Promise<SearchItem[]> {
    const items = await this.searchItems({
      namespacePrefix: operation.namespacePrefix,
      filter: parseStoreFilter(operation.filter),
      limit: operation.limit ?? 10,
      offset: operation.offset ?? 0,
      query: operation.query,
    });
    return items.map((item) => ({ ...toItem(item)!, ...(item.score != null ? { score: item.score } : {}) }));
  }

  private runListNamespaces(operation: ListNamespacesOperation): Promise<string[][]> {
    const conditions = operation.matchConditions ?? [];
    return this.listNamespacePaths({
      prefix: conditions.find((condition) => condition.matchType === "prefix")?.path ?? [],
      suffix: conditions.find((condition) => condition.matchType === "suffix")?.path ?? [],
      maxDepth: operation.maxDepth,
      limit: operation.limit,
      offset: operation.offset,
    });
  }

  /** One vector per text of each indexed field (a list field gives one per element). */
  private async embedValue(value: Record<string, unknown>, index: false | string[] | undefined) {
    const config = this.index;
    if (!config || index === false) return [];
    const texts: Array<{ fieldPath: string; text: string }> = [];
    for (const path of index ?? config.fields) {
      const found = path === "$" ? [JSON.stringify(value)] : getTextAtPath(value, path);
      found.forEach((text, position) => texts.push({ fieldPath: found.length > 1 ? `${path}.${position}` : path, text }));
    }
    if (texts.length === 0) return [];
    let vectors: number[][];
    try {
      vectors = await config.embeddings.embedDocuments(texts.map((entry) => entry.text));
    } catch (error) {
      throw new EmbeddingProviderError(config.provider, (error as Error)?.message ?? String(error), { cause: error });
    }
    if (vectors.length !== texts.length) {
      throw new EmbeddingProviderError(config.provider, `returned ${vectors.length} vectors for ${texts.length} texts`);
    }
    return texts.map((entry, position) => ({ fieldPath: entry.fieldPath, vector: toUnitLength(checkDims(config, vectors[position])) }));
  }

  private async embedQuery(config: StoreIndexConfig, query: string): Promise<number[]> {
    let vector: number[];
    try {
      vector = await config.embeddings.embedQuery(query);
    } catch (error) {
      throw new EmbeddingProviderError(config.provider, (error as Error)?.message ?? String(error), { cause: error });
    }
    return toUnitLength(checkDims(config, vector));
  }
}

/**
 * Vectors are stored and compared at unit length: cosine similarity is then a plain dot product,
 * which is what the exact scan computes (one multiply-add per dimension instead of three).
 * A zero vector stays zero (similar to nothing).
 */
function toUnitLength(vector: number[]): number[] {
  const length = Math.hypot(...vector);
  return length === 0 ? vector : vector.map((value) => value / length);
}

function checkDims(config: StoreIndexConfig, vector: number[] | undefined): number[] {
  if (!Array.isArray(vector) || vector.length !== config.dims || !vector.every(Number.isFinite)) {
    throw new EmbeddingProviderError(config.provider, `returned a vector that is not ${config.dims} finite numbers (store.index.dims)`);
  }
  return vector;
}

function toItem(item: StoreItem | null): Item | null {
  if (!item) return null;
  return { namespace: item.namespace, key: item.key, value: item.value, createdAt: item.createdAt, updatedAt: item.updatedAt };
}
