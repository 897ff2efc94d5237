/**
 * Time zone maths for the crons page, pure (no clock: `now` is a parameter). A cron's schedule is
 * read in its own IANA zone, so its firings are shown in that zone, not in the browser's.
 */

/** The zone menu: the browser's zone first, then UTC, then every other zone the browser knows. */
export function timezoneChoices(browserZone: string, supported: readonly string[]): string[] {
  return [...new Set([browserZone, "UTC", ...supported])];
}

/** The browser's zones, or just UTC on an engine without Intl.supportedValuesOf (pre-2022). */
export function supportedTimezones(): string[] {
  return typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["UTC"];
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string, withZoneName: boolean): Intl.DateTimeFormat {
  const key = `${timeZone}|${withZoneName}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      weekday: withZoneName ? "short" : undefined,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: withZoneName ? undefined : "2-digit",
      // h23, not hour12: false, which some engines render as "24:00" at midnight.
      hourCycle: "h23",
      timeZoneName: withZoneName ? "short" : undefined,
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

function partsOf(formatter: Intl.DateTimeFormat, date: Date): Record<string, string> {
  return Object.fromEntries(formatter.formatToParts(date).map((part) => [part.type, part.value]));
}

/**
 * "Mon 2025-01-06 09:00 GMT+1": an instant as the wall clock of `timeZone` reads it (without the
 * weekday where it does not help, such as an end date).
 */
export function formatZonedDateTime(iso: string, timeZone: string, options: { withWeekday?: boolean } = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  let parts: Record<string, string>;
  try {
    parts = partsOf(formatterFor(timeZone, true), date);
  } catch {
    return iso; // a zone this browser does not know: the instant as sent is still right
  }
  const text = `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${parts.timeZoneName}`;
  return options.withWeekday === false ? text : `${parts.weekday} ${text}`;
}

/** How far `timeZone`'s wall clock is ahead of UTC at an instant, in ms (whole seconds). */
function zoneOffsetMs(instantMs: number, timeZone: string): number {
  const parts = partsOf(formatterFor(timeZone, false), new Date(instantMs));
  const wallAsUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return wallAsUtc - Math.floor(instantMs / 1000) * 1000;
}

const DAY_MS = 86_400_000;

/**
 * The instant at which `timeZone`'s wall clock shows `wallTime` (a datetime-local value,
 * "2025-03-30T02:30"), as an ISO string; null when the text is not such a value or the zone is
 * unknown. Across a DST change: a wall time that occurs twice (fall back) is its first
 * occurrence; one that does not exist (spring forward) moves forward by the gap (02:30 → 03:30),
 * as the cron scheduler does for a fixed-time schedule.
 */
export function zonedWallTimeToIso(wallTime: string, timeZone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(wallTime);
  if (!match) return null;
  const [year, month, day, hour, minute, second = "0"] = match.slice(1);
  const wallMs = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  if (Number.isNaN(wallMs)) return null;
  try {
    // A day either side of any one transition holds both offsets it switches between.
    const before = zoneOffsetMs(wallMs - DAY_MS, timeZone);
    const after = zoneOffsetMs(wallMs + DAY_MS, timeZone);
    const matching = [wallMs - before, wallMs - after].filter((instant) => zoneOffsetMs(instant, timeZone) === wallMs - instant);
    const instant = matching.length > 0 ? Math.min(...matching) : wallMs - before;
    return new Date(instant).toISOString();
  } catch {
    return null;
  }
}

/** A datetime-local value ("2025-01-06T09:00") for an instant on `timeZone`'s wall clock. */
export function isoToZonedWallTime(iso: string, timeZone: string): string {
  try {
    const parts = partsOf(formatterFor(timeZone, false), new Date(iso));
    return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
  } catch {
    return ""; // an unknown zone or instant: no value
  }
}

export type CronField = "schedule" | "timezone" | "endTime";

/**
 * Which form field a server INVALID_INPUT message is about. The API prefixes the field it refuses
 * ("schedule: minute field \"61\" is out of range 0-59", "end_time: … is not in the future"), so
 * the form can show the rest of the message under that field; null: a message for the banner.
 */
export function fieldOfError(message: string): { field: CronField; detail: string } | null {
  const match = /^(schedule|timezone|end_time|endTime):\s*(.*)$/s.exec(message);
  if (!match) return null;
  const field = match[1] === "end_time" || match[1] === "endTime" ? "endTime" : (match[1] as CronField);
  return { field, detail: match[2] };
}
