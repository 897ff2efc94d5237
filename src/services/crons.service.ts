import type { EntityManager } from "typeorm";
import { cronPayloadProblem } from "../domain/run-request.js";
import { deleteOldFirings, selectFirings, selectLastFirings } from "../db/sql/cron-firings.js";
import { insertCron } from "../db/sql/insert-cron.js";
import { listCronsOf } from "../db/sql/list-crons-of.js";
import { listRunsOfCrons } from "../db/sql/list-runs-of-crons.js";
import { countCrons, searchCrons, type CronFilter } from "../db/sql/search-crons.js";
import { deleteCron } from "../db/sql/delete-cron.js";
import { selectCron, selectCronsByIds } from "../db/sql/select-crons.js";
import { updateCron } from "../db/sql/update-cron.js";
import { withTransaction } from "../db/tx.js";
import { normalizeSchedule, normalizeTimezone, nextRunAfter, nextRunsAfter } from "../domain/next-run.js";
import type { SortOrder } from "../domain/assistant.js";
import { CRON_FIRINGS_KEPT, type Cron, type CronFiring, type CronPayload, type CronSortField, type OnRunCompleted } from "../domain/cron.js";
import { InvalidInputError, NotFoundError } from "../domain/errors.js";
import { isUuid, newId, systemAssistantId } from "../domain/ids.js";
import type { JsonObject } from "../domain/json.js";
import type { Run } from "../domain/run.js";
import { scopeOf, stampedMetadata, type MetadataScope } from "./access-scope.js";
import { findAssistantForRun } from "./assistants.service.js";
import { fireDueCrons, type CronTick, type FiringEffects } from "./crons/fire-due-crons.js";
import { inKeyOrder } from "./key-order.js";
import { announceCancellations } from "./run-lifecycle/cancel-run.js";
import { requireAllowedWebhook } from "./run-lifecycle/webhooks.js";
import type { ServiceContext } from "./service-context.js";
import { threadsService } from "./threads.service.js";
import { withAuthUser } from "./run-auth-user.js";
import { openCron, openCrons, openRuns, requireScopeKeysInClear, sealCron } from "./field-encryption.js";

/** A cron request in domain terms; the transports map their payloads to this. */
export interface CreateCronInput {
  /** null: a stateless cron (a new thread per firing). */
  threadId: string | null;
  /** An assistant id or a graph name. */
  assistantId: string;
  schedule: string;
  /** IANA zone; default UTC. */
  timezone?: string;
  payload: CronPayload;
  metadata?: JsonObject;
  endTime?: Date | null;
  enabled?: boolean;
  /** Stateless crons only; default delete. Ignored for thread crons. */
  onRunCompleted?: OnRunCompleted;
}

/** Given fields replace the stored ones; omitted ones stay. */
export interface UpdateCronInput {
  schedule?: string;
  timezone?: string;
  /** null clears it. */
  endTime?: Date | null;
  enabled?: boolean;
  onRunCompleted?: OnRunCompleted;
  metadata?: JsonObject;
  payload?: Partial<CronPayload>;
}

export interface SearchCronsInput {
  assistantId?: string;
  threadId?: string;
  enabled?: boolean;
  /** Crons whose metadata contains these key/value pairs. */
  metadata?: JsonObject;
  limit: number;
  offset: number;
  sortBy?: CronSortField;
  sortOrder?: SortOrder;
}

/** A cron's newest runs and how many it has queued in all (runs that still exist). */
export interface CronRunsPage {
  runs: Run[];
  total: number;
}

/** A cron's newest firings and how many it keeps. */
export interface CronFiringsPage {
  firings: CronFiring[];
  total: number;
}

/** Old firings deleted per statement when pruning. */
const FIRINGS_PRUNE_BATCH = 5_000;

/** Most firings a schedule preview lists. */
export const MAX_SCHEDULE_PREVIEW = 100;

function requireCronId(cronId: string): string {
  if (!isUuid(cronId)) throw new NotFoundError(`Cron '${cronId}' not found: cron ids are UUIDs`);
  return cronId.toLowerCase();
}

/** The cron, if it exists within the caller's scope (otherwise it answers as missing). */
async function loadCron(
  manager: EntityManager,
  cronId: string,
  options: { lock?: boolean; scope: MetadataScope },
): Promise<Cron> {
  const cron = await selectCron(manager, requireCronId(cronId), options.scope, options);
  if (!cron) throw new NotFoundError(`Cron '${cronId}' not found`);
  return cron;
}

/** The value `crons:search` handlers receive, in LangGraph's wire names. */
function searchRequest(
  filter: Pick<SearchCronsInput, "assistantId" | "threadId" | "enabled" | "metadata">,
  page: { limit?: number; offset?: number },
): Record<string, unknown> {
  return { assistant_id: filter.assistantId, thread_id: filter.threadId, enabled: filter.enabled, metadata: filter.metadata, ...page };
}

function requireFutureEndTime(endTime: Date | null | undefined, now: Date): void {
  if (endTime && endTime.getTime() <= now.getTime()) {
    throw new InvalidInputError(`end_time: ${endTime.toISOString()} is not in the future`);
  }
}

function requireValidPayload(ctx: ServiceContext, payload: Partial<CronPayload> | undefined): void {
  const problem = payload ? cronPayloadProblem(payload) : null;
  if (problem) throw new InvalidInputError(problem);
  requireAllowedWebhook(ctx, payload?.webhook);
}

/**
 * The next slot of an enabled cron, from now. A schedule that never fires again, or not before
 * end_time, is refused: such a cron would sit in the database doing nothing.
 */
function firstSlot(cron: Pick<Cron, "schedule" | "timezone" | "endTime" | "enabled">, now: Date): Date | null {
  if (!cron.enabled) return null;
  const next = nextRunAfter(cron.schedule, cron.timezone, now);
  if (next === null) throw new InvalidInputError(`schedule: "${cron.schedule}" never fires`);
  if (cron.endTime && next > cron.endTime) {
    throw new InvalidInputError(
      `end_time: the schedule's next firing (${next.toISOString()}) is after end_time (${cron.endTime.toISOString()})`,
    );
  }
  return next;
}

/**
 * The filter in stored terms: an assistant may be named by a graph too. null when it can match
 * nothing (an id that is neither a UUID nor a graph), which lists nothing rather than failing.
 */
function filterOf(ctx: ServiceContext, input: Omit<SearchCronsInput, "limit" | "offset" | "sortBy" | "sortOrder">): CronFilter | null {
  const { assistantId, threadId, enabled, metadata } = input;
  if (threadId !== undefined && !isUuid(threadId)) return null;
  if (assistantId !== undefined && !ctx.graphs.has(assistantId) && !isUuid(assistantId)) return null;
  return {
    assistantId: assistantId === undefined ? undefined : ctx.graphs.has(assistantId) ? systemAssistantId(assistantId) : assistantId.toLowerCase(),
    threadId: threadId?.toLowerCase(),
    enabled,
    metadata,
  };
}

export const cronsService = {
  /** Validates everything before writing: a refused request creates nothing. */
  async create(ctx: ServiceContext, input: CreateCronInput): Promise<Cron> {
    const now = ctx.now();
    const schedule = normalizeSchedule(input.schedule);
    const timezone = normalizeTimezone(input.timezone ?? "UTC");
    requireFutureEndTime(input.endTime, now);
    requireValidPayload(ctx, input.payload);
    const request = {
      payload: input.payload as unknown as Record<string, unknown>,
      schedule,
      thread_id: input.threadId ?? undefined,
      user_id: ctx.actor.user?.identity,
      end_time: input.endTime?.toISOString(),
      metadata: { ...(input.metadata ?? {}) },
    };
    const scope = await scopeOf(ctx, "crons", "create", request);
    const assistant = await findAssistantForRun(ctx, input.assistantId);
    const threadId = input.threadId === null ? null : (await threadsService.get(ctx, input.threadId)).threadId;
    // Its firings run as the user who created it (LangGraph's run config keys; see run-auth-user.ts).
    const payload = { ...input.payload, config: withAuthUser(input.payload.config, ctx.actor.user) };
    input = { ...input, payload, metadata: stampedMetadata(request) ?? {} };
    const cron: Cron = {
      cronId: newId(),
      assistantId: assistant.assistantId,
      threadId,
      schedule,
      timezone,
      payload: input.payload,
      metadata: input.metadata ?? {},
      endTime: input.endTime ?? null,
      enabled: input.enabled ?? true,
      onRunCompleted: threadId === null ? (input.onRunCompleted ?? "delete") : null,
      nextRunDate: null,
      createdAt: now,
      updatedAt: now,
      encryptionContext: null,
    };
    cron.nextRunDate = firstSlot(cron, now);
    const stored = await sealCron(ctx, cron);
    requireScopeKeysInClear(scope, cron.metadata, stored.metadata);
    try {
      await insertCron(ctx.db.dataSource.manager, stored);
    } catch (error) {
      // The thread or assistant was deleted since we read it.
      if ((error as { code?: string }).code === "23503") throw new NotFoundError(`Thread '${threadId}' or assistant '${assistant.assistantId}' not found`);
      throw error;
    }
    ctx.streaming.signals.cronsChanged();
    return { ...cron, encryptionContext: stored.encryptionContext };
  },

  async get(ctx: ServiceContext, cronId: string): Promise<Cron> {
    const scope = await scopeOf(ctx, "crons", "read", { cron_id: cronId });
    return openCron(ctx, await loadCron(ctx.db.dataSource.manager, cronId, { scope }));
  },

  /** For DataLoaders: results in key order, null where a cron does not exist. */
  async getMany(ctx: ServiceContext, cronIds: readonly string[]): Promise<(Cron | null)[]> {
    const valid = cronIds.filter(isUuid);
    const scope = await scopeOf(ctx, "crons", "read", { cron_ids: valid });
    const found = valid.length ? await selectCronsByIds(ctx.db.dataSource.manager, valid, scope) : [];
    return inKeyOrder(cronIds, await openCrons(ctx, found), (cron) => cron.cronId);
  },

  /**
   * Given fields replace the stored ones. A change to when it fires (schedule, timezone,
   * end_time, enabled) re-plans the next slot from now; a disabled cron has none.
   */
  async update(ctx: ServiceContext, cronId: string, input: UpdateCronInput): Promise<Cron> {
    const now = ctx.now();
    const schedule = input.schedule === undefined ? undefined : normalizeSchedule(input.schedule);
    const timezone = input.timezone === undefined ? undefined : normalizeTimezone(input.timezone);
    requireFutureEndTime(input.endTime, now);
    requireValidPayload(ctx, input.payload);
    const request = { cron_id: cronId, payload: input.payload, schedule: input.schedule, metadata: input.metadata ? { ...input.metadata } : undefined };
    const scope = await scopeOf(ctx, "crons", "update", request);
    const callerGaveMetadata = input.metadata !== undefined;
    input = { ...input, metadata: stampedMetadata(request) };
    const updated = await withTransaction(ctx.db, async (manager) => {
      const current = await openCron(ctx, await loadCron(manager, cronId, { lock: true, scope }));
      const cron: Cron = {
        ...current,
        schedule: schedule ?? current.schedule,
        timezone: timezone ?? current.timezone,
        endTime: input.endTime !== undefined ? input.endTime : current.endTime,
        enabled: input.enabled ?? current.enabled,
        onRunCompleted: current.threadId === null ? (input.onRunCompleted ?? current.onRunCompleted) : null,
        // A handler's stamp on an update that named no metadata adds to the stored metadata.
        metadata: callerGaveMetadata ? input.metadata! : { ...current.metadata, ...(input.metadata ?? {}) },
        payload: { ...current.payload, ...definedFields(input.payload ?? {}) },
        updatedAt: now,
      };
      const replans = [input.schedule, input.timezone, input.endTime, input.enabled].some((value) => value !== undefined);
      if (replans) cron.nextRunDate = firstSlot(cron, now);
      // Sealed again whole (metadata and payload are replaced, never merged in SQL), with the
      // context the cron was created with.
      const stored = await sealCron(ctx, cron, current.encryptionContext);
      requireScopeKeysInClear(scope, cron.metadata, stored.metadata);
      await updateCron(manager, stored);
      return { ...cron, encryptionContext: stored.encryptionContext };
    });
    ctx.streaming.signals.cronsChanged();
    return updated;
  },

  async delete(ctx: ServiceContext, cronId: string): Promise<void> {
    const scope = await scopeOf(ctx, "crons", "delete", { cron_id: cronId });
    const deleted = await deleteCron(ctx.db.dataSource.manager, requireCronId(cronId), scope);
    if (!deleted) throw new NotFoundError(`Cron '${cronId}' not found`);
    ctx.streaming.signals.cronsChanged();
  },

  async search(ctx: ServiceContext, input: SearchCronsInput): Promise<Cron[]> {
    const { limit, offset, sortBy = "created_at", sortOrder = "desc", ...wanted } = input;
    const scope = await scopeOf(ctx, "crons", "search", searchRequest(wanted, { limit, offset }));
    const filter = filterOf(ctx, wanted);
    return filter ? openCrons(ctx, await searchCrons(ctx.db.dataSource.manager, { ...filter, scope }, { limit, offset, sortBy, sortOrder })) : [];
  },

  async count(ctx: ServiceContext, filter: Omit<SearchCronsInput, "limit" | "offset" | "sortBy" | "sortOrder">): Promise<number> {
    const scope = await scopeOf(ctx, "crons", "search", searchRequest(filter, {}));
    const stored = filterOf(ctx, filter);
    return stored ? countCrons(ctx.db.dataSource.manager, { ...stored, scope }) : 0;
  },

  /** For DataLoaders: the oldest `perOwner` crons of each assistant or thread, in key order. */
  async listOf(
    ctx: ServiceContext,
    owner: "assistant" | "thread",
    ownerIds: readonly string[],
    perOwner: number,
  ): Promise<Cron[][]> {
    const keys = ownerIds.map((id) => id.toLowerCase());
    const valid = [...new Set(keys.filter(isUuid))];
    const column = owner === "assistant" ? "assistant_id" : "thread_id";
    const scope = await scopeOf(ctx, "crons", "search", { [column]: valid });
    const crons = valid.length > 0 ? await openCrons(ctx, await listCronsOf(ctx.db.dataSource.manager, { owner: column, ownerIds: valid, perOwner, scope })) : [];
    return keys.map((key) => crons.filter((cron) => (owner === "assistant" ? cron.assistantId : cron.threadId) === key));
  },

  /** For DataLoaders: each cron's newest `perCron` runs (newest first) and its total, in key order. */
  async listRunsOfMany(ctx: ServiceContext, cronIds: readonly string[], perCron: number): Promise<CronRunsPage[]> {
    const keys = cronIds.map((id) => id.toLowerCase());
    const valid = [...new Set(keys.filter(isUuid))];
    const rows = valid.length > 0 ? await listRunsOfCrons(ctx.db.dataSource.manager, { cronIds: valid, perCron }) : [];
    const runs = await openRuns(ctx, rows.map((row) => row.run));
    const pages = new Map<string, CronRunsPage>();
    for (const [index, { cronId, cronTotal }] of rows.entries()) {
      const run = runs[index]!;
      const page = pages.get(cronId) ?? { runs: [], total: cronTotal };
      page.runs.push(run);
      pages.set(cronId, page);
    }
    return keys.map((key) => pages.get(key) ?? { runs: [], total: 0 });
  },

  /**
   * For DataLoaders: each cron's newest `perCron` firings (newest first; they outlive a stateless
   * cron's runs) and how many it keeps, in key order. Callers hold the crons already (scoped).
   */
  async listFiringsOfMany(ctx: ServiceContext, cronIds: readonly string[], perCron: number): Promise<CronFiringsPage[]> {
    const keys = cronIds.map((id) => id.toLowerCase());
    const valid = [...new Set(keys.filter(isUuid))];
    const pages = await selectFirings(ctx.db.dataSource.manager, valid, perCron);
    return keys.map((key) => pages.get(key) ?? { firings: [], total: 0 });
  },

  /** The newest firing of each of these crons (the caller found them already), by cron id; one query. */
  async lastFiringsOf(ctx: ServiceContext, crons: readonly Cron[]): Promise<Map<string, CronFiring>> {
    return selectLastFirings(ctx.db.dataSource.manager, crons.map((cron) => cron.cronId));
  },

  /** Keeps each cron's newest CRON_FIRINGS_KEPT firings (the TTL sweeper, hourly); returns how many went. */
  async pruneFirings(ctx: ServiceContext): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await deleteOldFirings(ctx.db.dataSource.manager, CRON_FIRINGS_KEPT, FIRINGS_PRUNE_BATCH);
      total += deleted;
      if (deleted < FIRINGS_PRUNE_BATCH) return total;
    }
  },

  /** The next `count` firings of a schedule from now (for a console's preview), or INVALID_INPUT naming the field. */
  previewSchedule(ctx: ServiceContext, input: { schedule: string; timezone?: string; count?: number }): Date[] {
    const count = input.count ?? 5;
    if (!Number.isInteger(count) || count < 1 || count > MAX_SCHEDULE_PREVIEW) {
      throw new InvalidInputError(`count: must be between 1 and ${MAX_SCHEDULE_PREVIEW}, got ${count}`);
    }
    const schedule = normalizeSchedule(input.schedule);
    const timezone = normalizeTimezone(input.timezone ?? "UTC");
    return nextRunsAfter(schedule, timezone, ctx.now(), count);
  },

  /**
   * The cron scheduler's tick: fires every due cron and says when the next one is due. Called on
   * the scheduler's clock (cron/cron-scheduler.ts); its effects are then
   * announced with announceFiring.
   */
  fireDue(ctx: ServiceContext, options: { batchSize: number }): Promise<CronTick> {
    return fireDueCrons(ctx, options);
  },

  /** After a tick committed: wakes this process's run worker and ends the streams of runs it cancelled. */
  announceFiring(ctx: ServiceContext, effects: FiringEffects): void {
    for (const cancellation of effects.cancellations) announceCancellations(ctx, cancellation);
    if (effects.firstRunAfter) ctx.streaming.signals.runPending(effects.firstRunAfter);
  },
};

function definedFields<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}
