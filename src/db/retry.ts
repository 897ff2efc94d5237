import { setTimeout as sleep } from "node:timers/promises";
import { asUnavailableError, isConnectionLoss } from "./connection-loss.js";

/**
 * The one place Hangar retries database work, keyed on SQLSTATE (STYLE §14): 40001
 * serialization_failure, 40P01 deadlock_detected and 57P03 cannot_connect_now (the transaction
 * was rolled back, or never began), and a lost connection (connection-loss.ts). Nothing else
 * retries silently.
 *
 * A lost connection is ambiguous for a write: the COMMIT may have reached the server before the
 * socket died. So only work that is idempotent may be retried on it (an upsert, a guarded
 * UPDATE … WHERE lease_owner = $me, a read); other work gets `retryOn: "rolled-back"` (the default
 * of withTransaction, db/tx.ts), where only errors that guarantee nothing was written count.
 */
const ROLLED_BACK_SQLSTATES = new Set(["40001", "40P01", "57P03"]);

export interface RetryOptions {
  /** "rolled-back": SQLSTATEs after which nothing was written; "idempotent": also a lost connection. */
  retryOn: "rolled-back" | "idempotent";
  /** Give up after this long (the last error is thrown; a lost connection as UnavailableError). */
  maxElapsedMs?: number;
  /** Called before each retry, for logs and counters. */
  onRetry?: (error: unknown, attempt: number) => void;
}

/**
 * How long the worker's own idempotent writes (checkpoints, run events, run outcomes) wait out a
 * lost connection before failing: a database restart or failover of a few seconds then pauses
 * runs instead of failing them or leaving their nodes to run again on another attempt.
 */
export const WORKER_WRITE_PATIENCE_MS = 15_000;

const FIRST_DELAY_MS = 20;
const MAX_DELAY_MS = 1_000;
const DEFAULT_MAX_ELAPSED_MS = 5_000;

export function isRetryable(error: unknown, retryOn: RetryOptions["retryOn"]): boolean {
  // TypeORM's QueryFailedError carries the pg error as driverError.
  const wrapper = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = wrapper?.code ?? wrapper?.driverError?.code;
  if (typeof code === "string" && ROLLED_BACK_SQLSTATES.has(code)) return true;
  return retryOn === "idempotent" && isConnectionLoss(error);
}

/**
 * Runs fn, retrying it on the errors `retryOn` allows, with exponential backoff and full jitter
 * (20 ms doubling up to 1 s; concurrent retries must not hit a recovering server in step), until
 * `maxElapsedMs` (default 5 s) has passed.
 */
export async function withRetry<T>(fn: () => Promise<T>, options: RetryOptions): Promise<T> {
  const deadline = Date.now() + (options.maxElapsedMs ?? DEFAULT_MAX_ELAPSED_MS);
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      const delay = Math.random() * Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** attempt);
      if (!isRetryable(error, options.retryOn) || Date.now() + delay > deadline) {
        throw asUnavailableError(error) ?? error;
      }
      options.onRetry?.(error, attempt);
      await sleep(delay);
    }
  }
}
