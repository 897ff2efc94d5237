/** What one tick reports back to the clock. */
export interface TickOutcome {
  /** The earliest slot still to fire; null when no enabled cron has one. */
  nextDueAt: Date | null;
  /** Due crons this tick could not take (their thread, or they, locked elsewhere): try again shortly. */
  retrySoon: boolean;
}

export interface TickClockOptions {
  /** Fires due crons and says when the next one is due. Never runs twice at once. */
  tick: () => Promise<TickOutcome>;
  /** Longest sleep: a safety net for a lost wake-up (a missed NOTIFY, a clock jump). */
  safetyPollMs: number;
  /** Sleep before retrying due crons the last tick could not take. */
  retryMs?: number;
  /** Sleep after a failed tick, doubled per consecutive failure up to safetyPollMs. */
  errorBackoffMs?: number;
  onError: (error: unknown) => void;
  now?: () => number;
}

/**
 * When the cron scheduler ticks: at the exact next due time (one timer, re-armed after every
 * tick), at once when told crons changed (`wake`), and at the latest every safetyPollMs. Wake-ups
 * during a tick coalesce into one more tick after it, so a burst of changes costs one re-plan.
 */
export class TickClock {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private failures = 0;
  private readonly now: () => number;

  constructor(private readonly options: TickClockOptions) {
    this.now = options.now ?? Date.now;
  }

  start(): void {
    this.wake();
  }

  /** Tick as soon as possible (after the current tick, if one is running). */
  wake(): void {
    if (this.stopped) return;
    if (this.running !== null) {
      this.again = true;
      return;
    }
    this.clearTimer();
    this.running = this.run().finally(() => {
      this.running = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** No more ticks; resolves once a tick in progress has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimer();
    await this.running;
  }

  private async run(): Promise<void> {
    let delay: number;
    try {
      const outcome = await this.options.tick();
      this.failures = 0;
      delay = this.delayUntil(outcome);
    } catch (error) {
      this.failures++;
      this.options.onError(error);
      delay = Math.min(this.options.safetyPollMs, (this.options.errorBackoffMs ?? 1_000) * 2 ** (this.failures - 1));
    }
    if (!this.stopped && !this.again) this.arm(delay);
  }

  private delayUntil({ nextDueAt, retrySoon }: TickOutcome): number {
    if (retrySoon) return this.options.retryMs ?? 250;
    if (nextDueAt === null) return this.options.safetyPollMs;
    // A slot that came due during the tick fires at once; setTimeout never fires early.
    return Math.min(this.options.safetyPollMs, Math.max(0, nextDueAt.getTime() - this.now()));
  }

  private arm(delay: number): void {
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wake();
    }, delay);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
