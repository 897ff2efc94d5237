import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TickClock, type TickOutcome } from "../../src/cron/tick-clock.js";

// The scheduler's timing, on vitest's fake timers (the clock is the outside world here).
beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2030-01-01T00:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

function clockWith(outcomes: Array<TickOutcome | Error>, options: { safetyPollMs?: number } = {}) {
  const ticks: number[] = [];
  const errors: unknown[] = [];
  const clock = new TickClock({
    tick: async () => {
      ticks.push(Date.now());
      const outcome = outcomes.shift() ?? { nextDueAt: null, retrySoon: false };
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
    safetyPollMs: options.safetyPollMs ?? 30_000,
    retryMs: 250,
    errorBackoffMs: 1_000,
    onError: (error) => errors.push(error),
  });
  return { clock, ticks, errors };
}

const at = (offsetMs: number) => new Date(Date.now() + offsetMs);

describe("TickClock", () => {
  it("ticks at start, then exactly at the next due time", async () => {
    const start = Date.now();
    const { clock, ticks } = clockWith([{ nextDueAt: at(1_500), retrySoon: false }, { nextDueAt: null, retrySoon: false }]);
    clock.start();
    await vi.advanceTimersByTimeAsync(1_499);
    expect(ticks).toEqual([start]);
    await vi.advanceTimersByTimeAsync(1);
    expect(ticks).toEqual([start, start + 1_500]);
    await clock.stop();
  });

  it("sleeps at most the safety poll, and wakes at once when told crons changed", async () => {
    const start = Date.now();
    const { clock, ticks } = clockWith([{ nextDueAt: at(3_600_000), retrySoon: false }], { safetyPollMs: 10_000 });
    clock.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(ticks).toEqual([start, start + 10_000]);
    await vi.advanceTimersByTimeAsync(2_000);
    clock.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(ticks).toEqual([start, start + 10_000, start + 12_000]);
    await clock.stop();
  });

  it("coalesces wake-ups during a tick into one more tick", async () => {
    let release: () => void = () => undefined;
    let calls = 0;
    const clock = new TickClock({
      tick: async () => {
        calls++;
        if (calls === 1) await new Promise<void>((resolve) => (release = resolve));
        return { nextDueAt: null, retrySoon: false };
      },
      safetyPollMs: 30_000,
      onError: () => undefined,
    });
    clock.start();
    await vi.advanceTimersByTimeAsync(0);
    for (let index = 0; index < 5; index++) clock.wake();
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(2);
    await clock.stop();
  });

  it("retries deferred crons shortly, and backs off after failures", async () => {
    const start = Date.now();
    const { clock, ticks, errors } = clockWith([
      { nextDueAt: at(-1), retrySoon: true },
      new Error("database down"),
      new Error("database down"),
      { nextDueAt: null, retrySoon: false },
    ]);
    clock.start();
    await vi.advanceTimersByTimeAsync(250 + 1_000 + 2_000);
    expect(ticks.map((tick) => tick - start)).toEqual([0, 250, 1_250, 3_250]);
    expect(errors).toHaveLength(2);
    await clock.stop();
  });

  it("ticks no more once stopped", async () => {
    const { clock, ticks } = clockWith([{ nextDueAt: at(1_000), retrySoon: false }]);
    clock.start();
    await vi.advanceTimersByTimeAsync(0);
    await clock.stop();
    clock.wake();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(ticks).toHaveLength(1);
  });
});
