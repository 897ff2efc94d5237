import DataLoader from "dataloader";
import type { Assistant, AssistantVersion } from "../domain/assistant.js";
import { CRON_FIRINGS_KEPT, type Cron } from "../domain/cron.js";
import type { Run, RunStatus } from "../domain/run.js";
import type { Thread } from "../domain/thread.js";
import { assistantsService } from "../services/assistants.service.js";
import { cronsService, type CronFiringsPage, type CronRunsPage } from "../services/crons.service.js";
import { runsService, type ThreadRunsPage } from "../services/runs.service.js";
import type { ServiceContext } from "../services/service-context.js";
import { threadsService } from "../services/threads.service.js";
import { tracesService } from "../services/traces.service.js";
import { traceFeedbackService } from "../services/trace-feedback.service.js";
import type { TraceFeedback } from "../domain/trace-feedback.js";
import type { TraceProgress, TraceRun, UsageTotals } from "../domain/trace-run.js";

/**
 * Per-request DataLoaders: one batched service call per kind of lookup and tick, so a page of N
 * assistants with their versions costs two queries, not N + 1. Never share them across requests
 * (their caches would serve one caller's data to another, and stale data after mutations).
 */
export interface Loaders {
  /** By assistant id; null when it does not exist. */
  assistant: DataLoader<string, Assistant | null>;
  /** Every version of an assistant, newest first. */
  assistantVersions: DataLoader<string, AssistantVersion[]>;
  /** By thread id; null when it does not exist. */
  thread: DataLoader<string, Thread | null>;
  /** The newest threads an assistant created (at most ASSISTANT_THREADS_LIMIT), newest first. */
  assistantThreads: DataLoader<string, Thread[]>;
  /** By run id; null when it does not exist. */
  run: DataLoader<string, Run | null>;
  /** A thread's newest runs (at most THREAD_RUNS_LIMIT; of one status when given) and their total. */
  threadRuns: DataLoader<ThreadRunsKey, ThreadRunsPage, string>;
  /** Trace runs by id; null when it does not exist. */
  traceRun: DataLoader<string, TraceRun | null>;
  /** The ids of a trace run's direct children, in execution order. */
  traceRunChildIds: DataLoader<string, string[]>;
  /** Every feedback on a trace run (by run id), oldest first. */
  traceRunFeedback: DataLoader<string, TraceFeedback[]>;
  /** Token and cost sums over every run of a trace (by trace id); null for a trace without runs. */
  traceTotals: DataLoader<string, UsageTotals | null>;
  /** A trace's earliest first token and whether it stopped in an interrupt (by trace id); null without runs. */
  traceProgress: DataLoader<string, TraceProgress | null>;
  /** Token and cost sums over the traces of a Hangar run (by run id); zeros when it has none. */
  hangarRunTotals: DataLoader<string, UsageTotals>;
  /** By cron id; null when it does not exist. */
  cron: DataLoader<string, Cron | null>;
  /** An assistant's oldest crons (at most OWNER_CRONS_LIMIT), oldest first. */
  assistantCrons: DataLoader<string, Cron[]>;
  /** A thread's oldest crons (at most OWNER_CRONS_LIMIT), oldest first. */
  threadCrons: DataLoader<string, Cron[]>;
  /** A cron's newest runs (at most CRON_RUNS_LIMIT) and their total. */
  cronRuns: DataLoader<string, CronRunsPage>;
  /** A cron's newest firings (all it keeps: CRON_FIRINGS_KEPT) and their total. */
  cronFirings: DataLoader<string, CronFiringsPage>;
}

export interface ThreadRunsKey {
  threadId: string;
  status: RunStatus | null;
}

/** Nested lists are loaded whole per key, so each thread's run list is capped too. */
export const THREAD_RUNS_LIMIT = 100;

/** Nested lists are loaded whole per key, so each assistant's thread list is capped. */
export const ASSISTANT_THREADS_LIMIT = 100;

/** Nested lists are loaded whole per key, so each assistant's or thread's cron list is capped. */
export const OWNER_CRONS_LIMIT = 100;

/** Nested lists are loaded whole per key, so each cron's run list is capped. */
export const CRON_RUNS_LIMIT = 100;

// Ids are UUIDs, which clients may send in either case; the services answer in lower case.
const byLowerCaseId = { cacheKeyFn: (id: string) => id.toLowerCase() };

export function createLoaders(services: ServiceContext): Loaders {
  return {
    assistant: new DataLoader((ids) => assistantsService.getMany(services, ids), byLowerCaseId),
    assistantVersions: new DataLoader(
      (ids) => assistantsService.listVersionsOfMany(services, ids.map((id) => id.toLowerCase())),
      byLowerCaseId,
    ),
    thread: new DataLoader((ids) => threadsService.getMany(services, ids), byLowerCaseId),
    assistantThreads: new DataLoader(
      (ids) => threadsService.listCreatedByAssistants(services, ids, ASSISTANT_THREADS_LIMIT),
      byLowerCaseId,
    ),
    run: new DataLoader((ids) => runsService.getMany(services, ids), byLowerCaseId),
    threadRuns: new DataLoader(loadThreadRuns(services), {
      cacheKeyFn: (key) => `${key.threadId.toLowerCase()}:${key.status ?? "*"}`,
    }),
    traceRun: new DataLoader((ids) => tracesService.getMany(services, ids), byLowerCaseId),
    traceRunChildIds: new DataLoader((ids) => tracesService.listChildIds(services, ids), byLowerCaseId),
    traceRunFeedback: new DataLoader((ids) => traceFeedbackService.listOfRuns(services, ids), byLowerCaseId),
    traceTotals: new DataLoader((ids) => tracesService.totalsForTraces(services, ids), byLowerCaseId),
    traceProgress: new DataLoader((ids) => tracesService.progressOfTraces(services, ids), byLowerCaseId),
    hangarRunTotals: new DataLoader((ids) => tracesService.totalsForHangarRuns(services, ids), byLowerCaseId),
    cron: new DataLoader((ids) => cronsService.getMany(services, ids), byLowerCaseId),
    assistantCrons: new DataLoader((ids) => cronsService.listOf(services, "assistant", ids, OWNER_CRONS_LIMIT), byLowerCaseId),
    threadCrons: new DataLoader((ids) => cronsService.listOf(services, "thread", ids, OWNER_CRONS_LIMIT), byLowerCaseId),
    cronRuns: new DataLoader((ids) => cronsService.listRunsOfMany(services, ids, CRON_RUNS_LIMIT), byLowerCaseId),
    cronFirings: new DataLoader((ids) => cronsService.listFiringsOfMany(services, ids, CRON_FIRINGS_KEPT), byLowerCaseId),
  };
}

/** One service call per status filter in the batch (a page of threads usually shares one). */
function loadThreadRuns(services: ServiceContext) {
  return async (keys: readonly ThreadRunsKey[]): Promise<ThreadRunsPage[]> => {
    const pages = new Array<ThreadRunsPage>(keys.length);
    const positionsByStatus = new Map<RunStatus | null, number[]>();
    keys.forEach((key, index) => positionsByStatus.set(key.status, [...(positionsByStatus.get(key.status) ?? []), index]));
    for (const [status, positions] of positionsByStatus) {
      const threadIds = positions.map((index) => keys[index]!.threadId);
      const found = await runsService.listNewestOfThreads(services, threadIds, { status, perThread: THREAD_RUNS_LIMIT });
      positions.forEach((index, position) => (pages[index] = found[position]!));
    }
    return pages;
  };
}
