import type { Database } from "../db/database.js";
import { pingDatabase } from "../db/sql/ping-database.js";

/** How long one dependency may take to answer before it counts as down. */
const PROBE_TIMEOUT_MS = 3_000;

/** A dependency's state as /ready and /ok?check_db=1 report it. */
export interface DependencyCheck {
  ok: boolean;
  /** How long the probe took (ms); for the worker, how long ago its claim loop last completed. */
  latency_ms?: number;
  error?: string;
  last_claim_loop_at?: string | null;
  seconds_since?: number | null;
}

/**
 * What a process can be asked about beyond its database, filled in main.ts as parts start:
 * Redis only when REDIS_URL is set, the worker only in processes that execute runs.
 */
export interface ReadinessProbes {
  redis?: () => Promise<unknown>;
  /** When the run worker's claim loop last completed, and how old it may get (its safety poll × 3). */
  workerClaimLoop?: () => { lastAt: Date | null; maxAgeMs: number };
}

export interface Readiness {
  ok: boolean;
  checks: Record<string, DependencyCheck>;
}

/**
 * Readiness: each dependency probed in parallel, each bounded by a timeout, so a hung connection
 * answers "down" within seconds instead of hanging the probe. Liveness (`/ok`) touches none.
 */
export const readinessService = {
  async check(db: Database, probes: ReadinessProbes, only: { databaseOnly?: boolean } = {}): Promise<Readiness> {
    const checks: Record<string, DependencyCheck> = {};
    const pending: Array<Promise<void>> = [
      timed(() => pingDatabase(db.dataSource.manager)).then((check) => void (checks.postgres = check)),
    ];
    if (!only.databaseOnly && probes.redis) {
      const ping = probes.redis;
      pending.push(timed(ping).then((check) => void (checks.redis = check)));
    }
    if (!only.databaseOnly && probes.workerClaimLoop) checks.worker = workerCheck(probes.workerClaimLoop());
    await Promise.all(pending);
    return { ok: Object.values(checks).every((check) => check.ok), checks };
  },
};

async function timed(probe: () => Promise<unknown>): Promise<DependencyCheck> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([probe(), timeout]);
    return { ok: true, latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, latency_ms: Math.round(performance.now() - started), error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

function workerCheck({ lastAt, maxAgeMs }: { lastAt: Date | null; maxAgeMs: number }): DependencyCheck {
  if (lastAt === null) return { ok: false, last_claim_loop_at: null, seconds_since: null, error: "the run worker has not completed a claim loop yet" };
  const ageMs = Date.now() - lastAt.getTime();
  const check: DependencyCheck = { ok: ageMs <= maxAgeMs, last_claim_loop_at: lastAt.toISOString(), seconds_since: Math.round(ageMs / 100) / 10 };
  if (!check.ok) check.error = `the run worker's claim loop last completed ${Math.round(ageMs / 1000)} s ago (more than ${maxAgeMs / 1000} s)`;
  return check;
}
