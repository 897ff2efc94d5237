import { daysInMonth, type CanonicalRunTime } from "./parse-run-time.js";

/**
 * LangSmith's dotted_order: one segment per ancestor, root first, joined by dots. A segment is the
 * run's start time at microsecond precision (`20240501T123456123456Z`) followed by the run id, so
 * sorting a trace's runs by dotted_order lists the tree depth-first in start order.
 */
export interface DottedOrderSegment {
  startTime: CanonicalRunTime;
  runId: string;
}

const SEGMENT = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{6})Z([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

/** The segments, root first, or undefined when any segment is malformed. */
export function parseDottedOrder(dottedOrder: string): DottedOrderSegment[] | undefined {
  const segments: DottedOrderSegment[] = [];
  for (const text of dottedOrder.split(".")) {
    const match = SEGMENT.exec(text);
    if (!match) return undefined;
    const [, year, month, day, hour, minute, second, micros, runId] = match;
    const [y, mo, d] = [Number(year), Number(month), Number(day)];
    const isValid = mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo) && Number(hour) <= 23 && Number(minute) <= 59 && Number(second) <= 59;
    if (!isValid) return undefined;
    // The digits are already UTC at microsecond precision: only punctuation is added.
    segments.push({ startTime: `${year}-${month}-${day}T${hour}:${minute}:${second}.${micros}Z`, runId: runId.toLowerCase() });
  }
  return segments;
}

/** The dotted_order of a root run, as RunTree builds it (execution order 1 is already in the time). */
export function rootDottedOrder(startTime: CanonicalRunTime, runId: string): string {
  return `${startTime.replace(/[-:.]/g, "")}${runId}`;
}
