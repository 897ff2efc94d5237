/**
 * The visible part of a trace's timeline, as fractions of the whole trace (0 = its first start,
 * 1 = its last end), and the axis ticks for it. Pure: the waterfall keeps the window in state.
 */
export interface TimelineWindow {
  start: number;
  end: number;
}

export const FULL_WINDOW: TimelineWindow = { start: 0, end: 1 };

/**
 * The narrowest window: 1/1000 of the trace, so a 1 ms LLM call in a 10 minute trace can still be
 * widened to a visible bar without zooming into nothing.
 */
const MIN_WIDTH = 0.001;

/**
 * Zoomed by `factor` (> 1 narrows the window, < 1 widens it) around `anchor`, a fraction of the
 * current window (0.5: its middle; the pointer's place for the wheel): the time under the anchor
 * stays where it is. Always within the whole trace.
 */
export function zoomWindow(window: TimelineWindow, factor: number, anchor = 0.5): TimelineWindow {
  const width = window.end - window.start;
  const nextWidth = Math.min(1, Math.max(MIN_WIDTH, width / factor));
  const pivot = window.start + width * clamp(anchor, 0, 1);
  return placeWindow(pivot - (pivot - window.start) * (nextWidth / width), nextWidth);
}

/** Moved by `delta` fractions of the current window (positive: later), stopping at the trace's ends. */
export function panWindow(window: TimelineWindow, delta: number): TimelineWindow {
  const width = window.end - window.start;
  return placeWindow(window.start + delta * width, width);
}

export function isFullWindow(window: TimelineWindow): boolean {
  return window.start <= 0 && window.end >= 1;
}

/** A bar (offset and width as fractions of the trace) placed in the window, as fractions of it. */
export function barInWindow(window: TimelineWindow, offset: number, width: number): { left: number; width: number } {
  const visible = window.end - window.start;
  return { left: (offset - window.start) / visible, width: width / visible };
}

/**
 * Axis ticks for the window of a trace lasting `spanMs`: round times (1, 2 or 5 × 10^n ms apart)
 * with their place in the window, about `count` of them.
 */
export function timelineTicks(window: TimelineWindow, spanMs: number, count = 5): { ms: number; at: number }[] {
  const fromMs = window.start * spanMs;
  const toMs = window.end * spanMs;
  const rough = (toMs - fromMs) / count;
  if (!(rough > 0)) return [{ ms: 0, at: 0 }];
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough) ?? 10 * power;
  const ticks: { ms: number; at: number }[] = [];
  for (let ms = Math.ceil(fromMs / step) * step; ms <= toMs + step * 1e-9; ms += step) {
    ticks.push({ ms: Number(ms.toPrecision(12)), at: (ms - fromMs) / (toMs - fromMs) });
  }
  return ticks;
}

function placeWindow(start: number, width: number): TimelineWindow {
  const clampedStart = clamp(start, 0, 1 - width);
  return { start: clampedStart, end: clampedStart + width };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
