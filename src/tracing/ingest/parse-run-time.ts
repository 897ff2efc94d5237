/**
 * Run times as LangSmith clients send them, normalized to one canonical string:
 * `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC, exactly six fractional digits).
 *
 * Why a string and not a Date: the SDKs send microseconds (RunTree pads the execution order into
 * the last three digits so siblings that start in the same millisecond keep their order), and a
 * JavaScript Date would drop them. PostgreSQL's timestamptz keeps microseconds, so the canonical
 * string goes into the database as is and comes back out unchanged.
 */
export type CanonicalRunTime = string;

// Date, optional time (seconds and fraction optional), optional offset. A space may separate date
// and time (PostgreSQL's text form). No offset means UTC: Python's datetime.utcnow().isoformat()
// sends naive times, and LangSmith treats them as UTC.
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

// Epoch milliseconds outside this range are certainly not run times (JavaScript Date's range).
const MAX_EPOCH_MS = 8.64e15;

/**
 * Parses an ISO 8601 string (any offset, or none = UTC), epoch milliseconds (a number, fraction =
 * sub-millisecond), a string of digits (epoch milliseconds) or a Date. Returns undefined when the
 * value is none of these or names an impossible date (2024-02-30).
 */
export function parseRunTime(value: unknown): CanonicalRunTime | undefined {
  if (typeof value === "number") return fromEpochMilliseconds(value);
  if (value instanceof Date) return fromEpochMilliseconds(value.getTime());
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (/^\d{1,16}(\.\d+)?$/.test(text)) return fromEpochMilliseconds(Number(text));
  return fromIsoString(text);
}

/** Milliseconds since the epoch of a canonical time (sub-millisecond digits dropped). */
export function runTimeToEpochMs(time: CanonicalRunTime): number {
  return Date.parse(time.slice(0, 23) + "Z");
}

function fromEpochMilliseconds(ms: number): CanonicalRunTime | undefined {
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_EPOCH_MS) return undefined;
  const micros = Math.round(ms * 1000);
  const wholeMs = Math.floor(micros / 1000);
  return format(wholeMs, micros - wholeMs * 1000);
}

function fromIsoString(text: string): CanonicalRunTime | undefined {
  const match = ISO_TIME.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour = "00", minute = "00", second = "00", fraction = "", offset] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  const offsetMinutes = parseOffsetMinutes(offset);
  if (offsetMinutes === undefined) return undefined;
  // Digits past microseconds are truncated: PostgreSQL stores microseconds.
  const micros = fraction.padEnd(6, "0").slice(0, 6);
  // UTC (what SDKs send) needs no date arithmetic: the parts are the canonical string.
  if (offsetMinutes === 0) return `${year}-${month}-${day}T${hour}:${minute}:${second}.${micros}Z`;
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0-99 to 1900-1999.
  const local = new Date(0);
  local.setUTCFullYear(y, mo - 1, d);
  local.setUTCHours(h, mi, s, Math.floor(Number(micros) / 1000));
  return format(local.getTime() - offsetMinutes * 60_000, Number(micros) % 1000);
}

function parseOffsetMinutes(offset: string | undefined): number | undefined {
  if (!offset || offset === "Z" || offset === "z") return 0;
  const sign = offset.startsWith("-") ? -1 : 1;
  const digits = offset.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return sign * (hours * 60 + minutes);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  const isLeap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && isLeap ? 29 : DAYS_IN_MONTH[month - 1];
}

function format(epochMs: number, subMillisecondMicros: number): CanonicalRunTime | undefined {
  const date = new Date(epochMs);
  const year = date.getUTCFullYear();
  if (Number.isNaN(epochMs) || year < 1 || year > 9999) return undefined;
  return `${date.toISOString().slice(0, 23)}${String(subMillisecondMicros).padStart(3, "0")}Z`;
}
