import type { z } from "zod";
import { describeCronPayload, type Cron, type CronFiring, type CronPayload } from "../domain/cron.js";
import type { JsonObject } from "../domain/json.js";
import { cronPayloadOf } from "../domain/run-request.js";
import type { CreateCronInput, SearchCronsInput, UpdateCronInput } from "../services/crons.service.js";
import type { CronCountRequest, CronCreate, CronPatch, CronSearchRequest } from "./schemas/crons.js";

/** A cron as the LangGraph SDK's `Cron` type has it, plus its timezone. */
export interface CronWire {
  cron_id: string;
  assistant_id: string;
  thread_id: string | null;
  schedule: string;
  timezone: string;
  payload: JsonObject;
  metadata: JsonObject;
  end_time: string | null;
  enabled: boolean;
  on_run_completed: Cron["onRunCompleted"];
  next_run_date: string | null;
  user_id: null;
  created_at: string;
  updated_at: string;
  /**
   * crons.search only: the newest firing and how its run went, kept after a stateless cron's run
   * and thread are deleted (the SDK's Cron type has no such field; its clients ignore it).
   */
  last_firing?: CronFiringWire | null;
}

export interface CronFiringWire {
  run_id: string | null;
  thread_id: string | null;
  status: CronFiring["status"];
  fired_at: string;
  started_at: string | null;
  ended_at: string | null;
  error: JsonObject | null;
}

/** A cron as every crons route answers it: with its last firing (null before the first). */
export function cronAnswerToWire(cron: Cron, lastFiring: CronFiring | null | undefined): CronWire {
  return { ...cronToWire(cron), last_firing: lastFiring ? cronFiringToWire(lastFiring) : null };
}

export function cronFiringToWire(firing: CronFiring): CronFiringWire {
  return {
    run_id: firing.runId,
    thread_id: firing.threadId,
    status: firing.status,
    fired_at: firing.firedAt.toISOString(),
    started_at: firing.startedAt?.toISOString() ?? null,
    ended_at: firing.endedAt?.toISOString() ?? null,
    error: firing.error,
  };
}

export function cronToWire(cron: Cron): CronWire {
  return {
    cron_id: cron.cronId,
    assistant_id: cron.assistantId,
    thread_id: cron.threadId,
    schedule: cron.schedule,
    timezone: cron.timezone,
    payload: describeCronPayload(cron),
    metadata: cron.metadata,
    end_time: cron.endTime?.toISOString() ?? null,
    enabled: cron.enabled,
    on_run_completed: cron.onRunCompleted,
    next_run_date: cron.nextRunDate?.toISOString() ?? null,
    // API keys are all-or-nothing: there are no users to own a cron.
    user_id: null,
    created_at: cron.createdAt.toISOString(),
    updated_at: cron.updatedAt.toISOString(),
  };
}

/** The payload fields of a create or patch body that were given (a patch keeps the others). */
function payloadFromWire(body: CronCreate | CronPatch): Partial<CronPayload> {
  return {
    input: body.input,
    context: body.context,
    config: body.config,
    streamModes: body.stream_mode,
    streamSubgraphs: body.stream_subgraphs,
    streamResumable: body.stream_resumable,
    interruptBefore: body.interrupt_before,
    interruptAfter: body.interrupt_after,
    webhook: body.webhook,
    multitaskStrategy: body.multitask_strategy,
    durability: body.durability ?? (body.checkpoint_during === false ? "exit" : undefined),
  };
}

/** Stateless endpoints pass `threadId: null`. Defaults are the domain's (cronPayloadOf). */
export function createCronFromWire(body: CronCreate, threadId: string | null): CreateCronInput {
  return {
    threadId,
    assistantId: body.assistant_id,
    schedule: body.schedule,
    timezone: body.timezone,
    endTime: body.end_time,
    enabled: body.enabled,
    onRunCompleted: body.on_run_completed,
    metadata: body.metadata,
    payload: cronPayloadOf(payloadFromWire(body)),
  };
}

export function updateCronFromWire(body: CronPatch): UpdateCronInput {
  return {
    schedule: body.schedule,
    timezone: body.timezone,
    endTime: body.end_time,
    enabled: body.enabled,
    onRunCompleted: body.on_run_completed,
    metadata: body.metadata,
    payload: payloadFromWire(body),
  };
}

export function cronFilterFromWire(body: z.infer<typeof CronCountRequest>) {
  return { assistantId: body.assistant_id, threadId: body.thread_id, enabled: body.enabled, metadata: body.metadata };
}

export function searchCronsFromWire(body: z.infer<typeof CronSearchRequest>): SearchCronsInput {
  const { limit, offset, sort_by: sortBy, sort_order: sortOrder } = body;
  return { ...cronFilterFromWire(body), limit, offset, sortBy, sortOrder };
}
