import {
  deleteTraceFeedback,
  getTraceFeedback,
  insertTraceFeedback,
  listFeedbackOfRuns,
  listTraceFeedback,
  updateTraceFeedback,
} from "../db/sql/trace-feedback.js";
import { withTransaction } from "../db/tx.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../domain/errors.js";
import { newId } from "../domain/ids.js";
import { assertStorableText } from "../domain/storable-text.js";
import {
  FEEDBACK_KEY_MAX_LENGTH,
  feedbackScore,
  type CreateFeedbackInput,
  type FeedbackFilter,
  type TraceFeedback,
  type UpdateFeedbackInput,
} from "../domain/trace-feedback.js";
import { getTraceRuns } from "../db/sql/get-trace-runs.js";
import type { IngestTraceRunsInput } from "../domain/trace-run.js";
import { requireOperator } from "./access-scope.js";
import { tracesService } from "./traces.service.js";
import type { ServiceContext } from "./service-context.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WHAT = "Trace feedback";

/**
 * Feedback on trace runs (LangSmith's feedback API), for REST (/tracing/feedback) and GraphQL
 * alike. The operator rule is the trace store's: users of a custom auth module get 403.
 */
export const traceFeedbackService = {
  /** A feedback on an existing run; 404 when the run does not exist, 409 when the id is taken. */
  async create(ctx: ServiceContext, input: CreateFeedbackInput): Promise<TraceFeedback> {
    requireOperator(ctx, WHAT);
    const row = validatedFeedback(input);
    // The trace check needs the stored row: insert and check in one transaction, so a refusal leaves nothing.
    return withTransaction(ctx.db, async (manager) => {
      const stored = await insertTraceFeedback(manager, row);
      if (stored === "conflict") throw new ConflictError(`Feedback '${row.id}' already exists`);
      if (stored === null) throw new NotFoundError(`Trace run '${input.runId}' not found: feedback needs a stored run`);
      requireRunTrace(stored, input);
      return stored;
    });
  },

  /**
   * A LangSmith multipart batch: its runs, then the feedback parts that came with them, which may
   * name runs of the same batch. Every feedback is checked (and its run found in the batch or the
   * store) before anything is written, for a clear answer; runs and feedback are then written in
   * ONE transaction, so a feedback refused there (its run deleted meanwhile, or a trace_id that
   * only the stored run contradicts) leaves none of the batch's runs written either. A feedback id
   * already stored is skipped: the SDK re-sends a batch it saw fail.
   */
  async ingestWithRuns(ctx: ServiceContext, runs: IngestTraceRunsInput, feedback: readonly CreateFeedbackInput[]): Promise<void> {
    requireOperator(ctx, WHAT);
    const rows = feedback.map((input) => validatedFeedback(input));
    // Each feedback's run, with its trace where known: from the batch's posts, else from the store.
    const traceOfRun = new Map<string, string | null>();
    for (const run of [...runs.posts, ...runs.patches]) {
      const id = run.id.toLowerCase();
      traceOfRun.set(id, run.traceId?.toLowerCase() ?? traceOfRun.get(id) ?? null);
    }
    const elsewhere = [...new Set(rows.map((row) => row.runId).filter((id) => !traceOfRun.has(id)))];
    if (elsewhere.length > 0) {
      for (const run of await getTraceRuns(ctx.db.dataSource.manager, elsewhere)) traceOfRun.set(run.id, run.traceId);
      const missing = elsewhere.find((id) => !traceOfRun.has(id));
      if (missing) throw new NotFoundError(`Trace run '${missing}' not found: feedback needs a stored run`);
    }
    rows.forEach((row, index) => requireRunTrace({ runId: row.runId, traceId: traceOfRun.get(row.runId) ?? null }, feedback[index]!));
    await tracesService.ingest(ctx, runs, {
      andThen: async (manager) => {
        for (const [index, row] of rows.entries()) {
          const stored = await insertTraceFeedback(manager, row);
          if (stored === null) throw new NotFoundError(`Trace run '${row.runId}' not found: feedback needs a stored run`);
          if (stored !== "conflict") requireRunTrace(stored, feedback[index]!);
        }
      },
    });
  },

  async get(ctx: ServiceContext, id: string): Promise<TraceFeedback> {
    requireOperator(ctx, WHAT);
    const feedback = UUID.test(id) ? await getTraceFeedback(ctx.db.dataSource.manager, id.toLowerCase()) : null;
    if (!feedback) throw new NotFoundError(`Feedback '${id}' not found`);
    return feedback;
  },

  async list(ctx: ServiceContext, filter: FeedbackFilter, page: { limit: number; offset: number }): Promise<TraceFeedback[]> {
    requireOperator(ctx, WHAT);
    for (const runId of filter.runIds ?? []) requireUuid(runId, "run");
    if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > 1000) throw new InvalidInputError("limit must be 1..1000");
    if (!Number.isInteger(page.offset) || page.offset < 0) throw new InvalidInputError("offset must be a non-negative integer");
    return listTraceFeedback(ctx.db.dataSource.manager, { ...filter, runIds: filter.runIds?.map((id) => id.toLowerCase()) }, page);
  },

  /** For DataLoaders: each run's feedback, oldest first, in key order. */
  async listOfRuns(ctx: ServiceContext, runIds: readonly string[]): Promise<TraceFeedback[][]> {
    requireOperator(ctx, WHAT);
    const valid = runIds.filter((id) => UUID.test(id)).map((id) => id.toLowerCase());
    const byRun = await listFeedbackOfRuns(ctx.db.dataSource.manager, valid);
    return runIds.map((id) => byRun.get(id.toLowerCase()) ?? []);
  },

  async update(ctx: ServiceContext, id: string, changes: UpdateFeedbackInput): Promise<TraceFeedback> {
    requireOperator(ctx, WHAT);
    const score = requireScore(changes.score);
    assertStorableText(changes, "feedback");
    const updated = UUID.test(id)
      ? await updateTraceFeedback(ctx.db.dataSource.manager, id.toLowerCase(), { ...changes, score })
      : null;
    if (!updated) throw new NotFoundError(`Feedback '${id}' not found`);
    return updated;
  },

  async delete(ctx: ServiceContext, id: string): Promise<void> {
    requireOperator(ctx, WHAT);
    const deleted = UUID.test(id) && (await deleteTraceFeedback(ctx.db.dataSource.manager, id.toLowerCase()));
    if (!deleted) throw new NotFoundError(`Feedback '${id}' not found`);
  },
};

/** The row a feedback input becomes; every refusal names the field. */
function validatedFeedback(input: CreateFeedbackInput): Omit<TraceFeedback, "traceId" | "createdAt" | "modifiedAt"> {
  const id = input.id ?? newId();
  requireUuid(id, "id");
  requireUuid(input.runId, "run_id");
  if (input.traceId != null) requireUuid(input.traceId, "trace_id");
  requireKey(input.key);
  const score = requireScore(input.score);
  const sourceType = input.source?.type ?? "api";
  if (typeof sourceType !== "string" || sourceType.length === 0 || sourceType.length > 100) {
    throw new InvalidInputError("feedback_source.type must be a non-empty string of at most 100 characters");
  }
  const fields = { value: input.value ?? null, comment: input.comment ?? null, correction: input.correction ?? null };
  assertStorableText({ key: input.key, ...fields, feedback_source: input.source ?? null }, "feedback");
  return {
    id: id.toLowerCase(),
    runId: input.runId.toLowerCase(),
    key: input.key,
    score: score ?? null,
    ...fields,
    source: { type: sourceType, metadata: input.source?.metadata ?? {} },
  };
}

/** A trace_id the client gave must be the run's (run ids are not reused across traces). */
function requireRunTrace(stored: Pick<TraceFeedback, "runId" | "traceId">, input: CreateFeedbackInput): void {
  const traceId = input.traceId?.toLowerCase();
  if (traceId !== undefined && stored.traceId !== null && stored.traceId !== traceId) {
    throw new InvalidInputError(`trace_id '${input.traceId}' is not the trace of run '${input.runId}' (${stored.traceId})`);
  }
}

function requireUuid(value: string, field: string): void {
  if (!UUID.test(value)) throw new InvalidInputError(`${field} must be a UUID, got '${value}'`);
}

function requireKey(key: string): void {
  if (typeof key !== "string" || key.length === 0 || key.length > FEEDBACK_KEY_MAX_LENGTH) {
    throw new InvalidInputError(`key must be a non-empty string of at most ${FEEDBACK_KEY_MAX_LENGTH} characters`);
  }
}

function requireScore(score: number | boolean | null | undefined): number | null | undefined {
  const checked = feedbackScore(score);
  if (!checked.ok) throw new InvalidInputError(checked.message);
  return checked.score;
}
