import { describe, expect, it } from "vitest";
import { barInWindow, FULL_WINDOW, isFullWindow, panWindow, timelineTicks, zoomWindow } from "../../web/src/lib/timeline-zoom.js";

describe("the waterfall's timeline window", () => {
  it("zooms around its anchor, keeping the time under it in place", () => {
    expect(zoomWindow(FULL_WINDOW, 2)).toEqual({ start: 0.25, end: 0.75 });
    const atPointer = zoomWindow(FULL_WINDOW, 4, 0.8);
    expect(atPointer.start + (atPointer.end - atPointer.start) * 0.8).toBeCloseTo(0.8, 10);
    expect(atPointer.end - atPointer.start).toBeCloseTo(0.25, 10);
  });

  it("never leaves the trace nor narrows past 1/1000 of it", () => {
    expect(zoomWindow({ start: 0.25, end: 0.75 }, 0.1)).toEqual(FULL_WINDOW);
    const narrowest = zoomWindow(FULL_WINDOW, 1e9);
    expect(narrowest.end - narrowest.start).toBeCloseTo(0.001, 10);
    expect(zoomWindow({ start: 0.9, end: 1 }, 0.5, 1)).toEqual({ start: 0.8, end: 1 });
  });

  it("pans by fractions of the window and stops at the ends", () => {
    expect(panWindow({ start: 0.2, end: 0.4 }, 0.5)).toEqual({ start: 0.30000000000000004, end: 0.5 });
    expect(panWindow({ start: 0.2, end: 0.4 }, -5)).toEqual({ start: 0, end: 0.2 });
    expect(panWindow({ start: 0.2, end: 0.4 }, 50).end).toBe(1);
    expect(isFullWindow(panWindow(FULL_WINDOW, 1))).toBe(true);
  });

  it("places bars relative to the window", () => {
    expect(barInWindow({ start: 0.5, end: 1 }, 0.75, 0.1)).toEqual({ left: 0.5, width: 0.2 });
    expect(barInWindow(FULL_WINDOW, 0.1, 0.2)).toEqual({ left: 0.1, width: 0.2 });
  });

  it("labels the axis with round times inside the window", () => {
    expect(timelineTicks(FULL_WINDOW, 1000).map((tick) => tick.ms)).toEqual([0, 200, 400, 600, 800, 1000]);
    const zoomed = timelineTicks({ start: 0.5, end: 0.6 }, 10_000);
    expect(zoomed.map((tick) => tick.ms)).toEqual([5000, 5200, 5400, 5600, 5800, 6000]);
    expect(zoomed[0]?.at).toBeCloseTo(0, 10);
    expect(zoomed.at(-1)?.at).toBeCloseTo(1, 10);
  });
});
