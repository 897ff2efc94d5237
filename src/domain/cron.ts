import type { JsonObject } from "./json.js";
import type { Durability, MultitaskStrategy, StreamMode } from "./run.js";

export type OnRunCompleted = "delete" | "keep";

export const CRON_SORT_FIELDS = ["cron_id", "assistant_id", "thread_id", "created_at", "updated_at", "next_run_date"] as const;
export type CronSortField = (typeof CRON_SORT_FIELDS)[number];

/** What every firing's run is created with: the same stored input and options each time. */
export interface CronPayload {
  input: unknown;
  /** Overlaid key by key on the assistant version's context at each firing. */
  context: JsonObject;
  config: JsonObject;
  streamModes: StreamMode[];
  streamSubgraphs: boolean;
  streamResumable: boolean;
  interruptBefore: string[] | "*" | null;
  interruptAfter: string[] | "*" | null;
  webhook: string | null;
  /** For thread crons, when the thread already has a run: enqueue (default) never clobbers it. */
  multitaskStrategy: MultitaskStrategy;
  durability: Durability | null;
}

export interface Cron {
  cronId: string;
  /** Always the resolved assistant UUID, even when created with a graph name. */
  assistantId: string;
  /** null: a stateless cron, whose every firing runs on a new thread. */
  threadId: string | null;
  /** 5 fields, single-spaced (see cron/next-run.ts). */
  schedule: string;
  /** IANA zone the schedule is read in. */
  timezone: string;
  payload: CronPayload;
  /** The cron's own metadata; each firing's run carries it too, with `cron_id`. */
  metadata: JsonObject;
  /** No firing after this instant. */
  endTime: Date | null;
  enabled: boolean;
  /** Stateless crons only (null for thread crons): what becomes of each firing's thread. */
  onRunCompleted: OnRunCompleted | null;
  /** The slot the scheduler fires next; null once past end_time or when the schedule ran out. */
  nextRunDate: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** The encryption context metadata and payload are sealed with in storage; null: stored in clear. */
  encryptionContext: JsonObject | null;
}

/**
 * The payload under LangGraph Platform's names, as REST's `payload` and GraphQL's `payload` show
 * it: what the cron sends each time it fires.
 */
export function describeCronPayload(cron: Pick<Cron, "assistantId" | "payload" | "metadata">): JsonObject {
  const { payload } = cron;
  return {
    assistant_id: cron.assistantId,
    input: payload.input,
    context: payload.context,
    config: payload.config,
    metadata: cron.metadata,
    stream_mode: payload.streamModes,
    stream_subgraphs: payload.streamSubgraphs,
    stream_resumable: payload.streamResumable,
    interrupt_before: payload.interruptBefore,
    interrupt_after: payload.interruptAfter,
    webhook: payload.webhook,
    multitask_strategy: payload.multitaskStrategy,
    durability: payload.durability,
  };
}

/** Metadata of a firing's run: the cron's, plus which cron fired it. */
export function cronRunMetadata(cron: Pick<Cron, "cronId" | "metadata">): JsonObject {
  return { ...cron.metadata, cron_id: cron.cronId };
}

/** A firing's state: its run's status, `refused` (a busy thread, multitask_strategy reject) or `deleted` (its run went before it finished). */
export const CRON_FIRING_STATUSES = ["pending", "running", "success", "error", "timeout", "interrupted", "refused", "deleted"] as const;
export type CronFiringStatus = (typeof CRON_FIRING_STATUSES)[number];

/**
 * One firing of a cron and how its run went, kept after the run (a stateless cron's run is
 * deleted with its thread) so the last firing stays visible. Each cron keeps its newest
 * CRON_FIRINGS_KEPT.
 */
export interface CronFiring {
  firingId: string;
  cronId: string;
  /** null when the firing queued no run (refused). */
  runId: string | null;
  threadId: string | null;
  status: CronFiringStatus;
  firedAt: Date;
  startedAt: Date | null;
  endedAt: Date | null;
  error: JsonObject | null;
}

export const CRON_FIRINGS_KEPT = 100;
