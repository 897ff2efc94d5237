import type { EntityManager } from "typeorm";
import { lockTraceRuns } from "../../db/sql/lock-trace-runs.js";
import { serializeTraceRunWrites, upsertTraceRuns, type TraceRunWrite } from "../../db/sql/upsert-trace-runs.js";
import { withTransaction } from "../../db/tx.js";
import { parseRunTime } from "../../tracing/ingest/parse-run-time.js";
import { modelPricesService } from "../model-prices.service.js";
import type { ServiceContext } from "../service-context.js";
import { deriveTraceRun } from "./derive-trace-run.js";
import { mergeRunOperation } from "./merge-run-record.js";
import { normalizeRunOperation, type NormalizedOperation } from "./normalize-run-operation.js";
import { mayHoldUnstorableText, toStorableValue, UNSTORABLE_TEXT_WARNING } from "./storable-text.js";
import type { IngestTraceRunsInput, TraceRunRecord } from "../../domain/trace-run.js";

export interface IngestOptions {
  /**
   * More writes that belong to the batch (a multipart batch's feedback): run in the transaction
   * that writes the runs, after them, so a failure there stores none of the runs either.
   */
  andThen?: (manager: EntityManager) => Promise<void>;
  /**
   * The batch traces Hangar's own runs, each settled after its trace is stored, with the WAL
   * flushed: the batch's commit need not wait for the flush (db/sql/commit-flush.ts).
   */
  flushedByRunSettle?: boolean;
}

/** Thrown inside a transaction to roll an incomplete attempt back when a follow-up write must go with it. */
class IncompleteAttempt extends Error {}

/**
 * Ingests a batch of posts and patches in one transaction of three statements, whatever its size:
 * lock and read the runs that already exist, merge and derive in memory, write everything with
 * one multi-row upsert. Either the whole batch is stored or (on invalid input) none of it.
 */
export async function ingestTraceRuns(
  ctx: ServiceContext,
  input: IngestTraceRunsInput,
  options: IngestOptions = {},
): Promise<{ runIds: string[] }> {
  const { andThen } = options;
  const commit = { awaitFlush: options.flushedByRunSettle !== true };
  // Validate everything before touching the database: a refused batch stores nothing.
  const operations = [
    ...input.posts.map((post) => normalizeRunOperation(post, "post")),
    ...input.patches.map((patch) => normalizeRunOperation(patch, "patch")),
  ];
  const byId = new Map<string, NormalizedOperation[]>();
  for (const operation of operations) {
    const forRun = byId.get(operation.id);
    if (forRun) forRun.push(operation);
    else byId.set(operation.id, [operation]);
  }
  // Id order everywhere: row locks and unique-index inserts are then taken in the same order by
  // every batch, so batches sharing runs wait for each other instead of deadlocking.
  const ids = [...byId.keys()].sort();
  if (ids.length === 0) {
    if (andThen) await withTransaction(ctx.db, andThen);
    return { runIds: [] };
  }
  // Loaded before the transaction: on the embedded database the transaction holds the only
  // connection, and a cache miss inside it would wait for that connection forever.
  const prices = await modelPricesService.currentPrices(ctx);
  const receivedAt = ctx.now();
  const receivedTime = parseRunTime(receivedAt) as string;
  const mergeAll = (existing: TraceRunRecord[]): TraceRunWrite[] => {
    const existingById = new Map(existing.map((record) => [record.id, record]));
    return ids.map((id): TraceRunWrite => {
      let record = existingById.get(id) ?? null;
      for (const operation of byId.get(id)!) record = mergeRunOperation(record, operation, receivedTime);
      return { record: record!, derived: deriveTraceRun(record!, prices) };
    });
  };

  if (input.allNew && !andThen) {
    // One statement instead of a transaction of four round trips; it leaves existing rows alone.
    const written = await upsertTraceRuns(ctx.db.dataSource.manager, serializeStorable(mergeAll([])), [], receivedAt, commit);
    if (written.length === ids.length) return { runIds: ids };
  }
  for (let attempt = 1; ; attempt++) {
    const written = await withTransaction(ctx.db, async (manager) => {
      const existing = await lockTraceRuns(manager, ids);
      const existingIds = existing.map((record) => record.id);
      const upserted = await upsertTraceRuns(manager, serializeStorable(mergeAll(existing)), existingIds, receivedAt, commit);
      if (andThen && upserted.length !== ids.length) throw new IncompleteAttempt();
      if (andThen) await andThen(manager);
      return upserted;
    }).catch((error: unknown) => {
      // With a follow-up write an incomplete attempt commits nothing: it is merged again below.
      if (error instanceof IncompleteAttempt) return [];
      throw error;
    });
    if (written.length === ids.length) return { runIds: ids };
    // Another batch created some of these runs between our read and our write; the upsert left
    // them alone (it only overwrites rows it read under lock), so merge again onto what they wrote.
    // Runs already written are merged again too, which is idempotent.
    if (attempt >= 5) throw new Error(`trace ingestion kept racing with concurrent batches for ${ids.length} runs`);
    ctx.log.debug({ attempt, missing: ids.length - written.length }, "trace runs created concurrently; merging again");
  }
}

function serializeStorable(writes: TraceRunWrite[]): string {
  const payload = serializeTraceRunWrites(writes);
  if (!mayHoldUnstorableText(payload)) return payload;
  return serializeTraceRunWrites(
    writes.map((write) => {
      const { value, changed } = toStorableValue(write);
      if (changed) value.derived.warnings.push(UNSTORABLE_TEXT_WARNING);
      return value;
    }),
  );
}
