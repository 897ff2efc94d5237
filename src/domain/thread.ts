import type { JsonObject } from "./json.js";

export const THREAD_STATUSES = ["idle", "busy", "interrupted", "error"] as const;
export type ThreadStatus = (typeof THREAD_STATUSES)[number];

export interface Thread {
  threadId: string;
  createdAt: Date;
  updatedAt: Date;
  stateUpdatedAt: Date;
  metadata: JsonObject;
  status: ThreadStatus;
  config: JsonObject;
  /** The latest state's values as the graph left them: an object for a StateGraph, any JSON value (or null) for a functional-API graph. */
  values: unknown;
  interrupts: JsonObject;
  /** The last run's error (a string or an object), null when the thread is not in error. */
  error: string | JsonObject | null;
  /** Minutes after its last update when the thread expires (deleted by the sweeper); null: never. */
  ttlMinutes?: number | null;
  /** The encryption context its metadata and values were sealed with; null: stored in clear (services/field-encryption.ts). */
  encryptionContext?: JsonObject | null;
}

/** When a thread with a TTL expires: its TTL after its last update. */
export function threadExpiresAt(thread: Pick<Thread, "updatedAt" | "ttlMinutes">): Date | null {
  return thread.ttlMinutes ? new Date(thread.updatedAt.getTime() + thread.ttlMinutes * 60_000) : null;
}

export const THREAD_SORT_FIELDS = ["thread_id", "status", "created_at", "updated_at", "state_updated_at"] as const;
export type ThreadSortField = (typeof THREAD_SORT_FIELDS)[number];
