import { Cron } from "croner";
import { InvalidInputError } from "./errors.js";

/**
 * Cron maths, pure: no clock (every function takes the instant to count from), no I/O.
 *
 * Schedules are the standard 5 fields (minute hour day-of-month month day-of-week) with lists,
 * ranges, steps (`*` or a range before the `/`) and JAN-DEC / SUN-SAT names. We validate them
 * ourselves before croner sees them, for two reasons: croner accepts more (seconds and year
 * fields, @-macros are not ours to promise, L/W/#/?/+ extensions) and its messages do not name
 * the field, while a 422 here must say which field is wrong and why.
 *
 * Next-run semantics are croner's, which follow Vixie cron across DST changes (croner README,
 * "DST handling"): a fixed-time schedule (no wildcard or step in minute and hour, e.g. `30 2 * * *`)
 * whose time falls in a spring-forward gap fires at the first valid instant after the gap, and
 * fires once in a fall-back repeat (the first occurrence); an interval schedule (`*\/30 * * * *`)
 * skips instants that do not exist and fires on both passes through a repeated hour. Day of month
 * and day of week combine with OR when both are restricted, as in Vixie cron.
 */

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  /** The largest step that still fires (croner refuses larger ones). */
  maxStep: number;
  names?: readonly string[];
}

const FIELDS: readonly FieldSpec[] = [
  { name: "minute", min: 0, max: 59, maxStep: 60 },
  { name: "hour", min: 0, max: 23, maxStep: 24 },
  { name: "day-of-month", min: 1, max: 31, maxStep: 31 },
  { name: "month", min: 1, max: 12, maxStep: 12, names: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"] },
  // 0 and 7 are both Sunday.
  { name: "day-of-week", min: 0, max: 7, maxStep: 7, names: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"] },
];

const FIELD_LIST = "minute hour day-of-month month day-of-week";

function scheduleError(message: string): InvalidInputError {
  return new InvalidInputError(`schedule: ${message}`);
}

/** A value of one field: a number, or (month, day-of-week) a name; `SUN` ending a range is 7. */
function readValue(field: FieldSpec, text: string, item: string, isRangeEnd: boolean): number {
  if (/^\d+$/.test(text)) {
    const value = Number(text);
    if (value < field.min || value > field.max) {
      throw scheduleError(`${field.name} field "${item}" is out of range ${field.min}-${field.max}`);
    }
    return value;
  }
  const index = field.names?.indexOf(text.toUpperCase()) ?? -1;
  if (index >= 0) {
    const value = field.name === "month" ? index + 1 : index;
    return isRangeEnd && field.name === "day-of-week" && value === 0 ? 7 : value;
  }
  if (field.names) {
    throw scheduleError(`${field.name} field "${item}": "${text}" is neither a number ${field.min}-${field.max} nor a name (${field.names.join(", ")})`);
  }
  throw scheduleError(`${field.name} field "${item}": "${text}" is not a number ${field.min}-${field.max}`);
}

function checkItem(field: FieldSpec, item: string): void {
  if (item === "") throw scheduleError(`${field.name} field has an empty list item`);
  const unsupported = /[^0-9A-Za-z*\-/]/.exec(item);
  if (unsupported) throw scheduleError(`${field.name} field "${item}": "${unsupported[0]}" is not supported`);
  const [base, step, ...extra] = item.split("/");
  if (extra.length > 0) throw scheduleError(`${field.name} field "${item}" has more than one step`);
  if (step !== undefined) {
    if (!/^\d+$/.test(step) || Number(step) < 1) {
      throw scheduleError(`${field.name} field "${item}": the step must be a whole number of at least 1`);
    }
    if (Number(step) > field.maxStep) {
      throw scheduleError(`${field.name} field "${item}": the step ${step} is larger than ${field.maxStep}`);
    }
    if (base !== "*" && !base!.includes("-")) {
      throw scheduleError(`${field.name} field "${item}": a step needs * or a range before it (e.g. */${step} or ${base}-${field.max}/${step})`);
    }
  }
  if (base === "*") return;
  const bounds = base!.split("-");
  if (bounds.length > 2 || bounds.some((bound) => bound === "")) {
    throw scheduleError(`${field.name} field "${item}" is not a value, a range a-b, or *`);
  }
  const start = readValue(field, bounds[0]!, item, false);
  if (bounds.length === 2) {
    const end = readValue(field, bounds[1]!, item, true);
    if (start > end) throw scheduleError(`${field.name} field "${item}": the range starts after it ends`);
  }
}

/**
 * The schedule with single spaces, or INVALID_INPUT naming the field at fault, e.g.
 * `schedule: hour field "25" is out of range 0-23`.
 */
export function normalizeSchedule(schedule: string): string {
  const trimmed = schedule.trim();
  if (trimmed.startsWith("@")) {
    throw scheduleError(`macros such as "${trimmed}" are not supported; write the 5 fields (${FIELD_LIST}), e.g. "0 0 * * *" for daily`);
  }
  const parts = trimmed.split(/\s+/).filter(Boolean);
  if (parts.length !== FIELDS.length) {
    const hint = parts.length === 6 ? " (a seconds field is not supported)" : "";
    throw scheduleError(`expected 5 fields (${FIELD_LIST}), got ${parts.length} in "${trimmed}"${hint}`);
  }
  parts.forEach((part, index) => {
    for (const item of part.split(",")) checkItem(FIELDS[index]!, item);
  });
  return parts.join(" ");
}

const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/** An IANA time zone name in its canonical spelling (`utc` → `UTC`), or INVALID_INPUT. */
export function normalizeTimezone(timezone: string): string {
  const invalid = () =>
    new InvalidInputError(`timezone: "${timezone}" is not an IANA time zone name (e.g. UTC, Europe/Berlin, America/New_York)`);
  // Intl also takes UTC offsets ("+01:00") on newer ICU versions; a zone must be a name.
  if (!ZONE_NAME.test(timezone)) throw invalid();
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: timezone }).resolvedOptions().timeZone;
  } catch {
    throw invalid();
  }
}

// Parsing costs ~17 µs per pattern (measured, croner 11); firing ticks reuse a parsed pattern for
// every cron that shares it. Bounded so arbitrary user schedules cannot grow it without limit.
const PARSED_LIMIT = 1_000;
const parsed = new Map<string, Cron>();

function cronOf(schedule: string, timezone: string): Cron {
  const key = `${timezone} ${schedule}`;
  let cron = parsed.get(key);
  if (!cron) {
    try {
      cron = new Cron(normalizeSchedule(schedule), { timezone, mode: "5-part", fixedTimeRule: "no-wildcard", paused: true });
    } catch (error) {
      if (error instanceof InvalidInputError) throw error;
      // Our checks should leave croner nothing to refuse; if it does, its words are the best we have.
      throw scheduleError((error as Error).message);
    }
    if (parsed.size >= PARSED_LIMIT) parsed.clear();
    parsed.set(key, cron);
  }
  return cron;
}

/** The first firing strictly after `after`, or null when the schedule never fires again (`0 0 30 2 *`). */
export function nextRunAfter(schedule: string, timezone: string, after: Date): Date | null {
  return cronOf(schedule, timezone).nextRun(after);
}

/** The next `count` firings strictly after `after` (fewer when the schedule runs out). */
export function nextRunsAfter(schedule: string, timezone: string, after: Date, count: number): Date[] {
  return cronOf(schedule, timezone).nextRuns(count, after);
}
