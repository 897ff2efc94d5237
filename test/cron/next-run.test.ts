import { describe, expect, it } from "vitest";
import { normalizeSchedule, normalizeTimezone, nextRunAfter, nextRunsAfter } from "../../src/domain/next-run.js";

// Every instant is explicit: the module has no clock, `after` is the injected "now".
const at = (iso: string) => new Date(iso);
const runs = (schedule: string, timezone: string, after: string, count: number) =>
  nextRunsAfter(schedule, timezone, at(after), count).map((date) => date.toISOString());

describe("nextRunAfter", () => {
  it("is strictly after the given instant, at whole minutes", () => {
    expect(nextRunAfter("* * * * *", "UTC", at("2025-01-01T00:01:00.000Z"))?.toISOString()).toBe("2025-01-01T00:02:00.000Z");
    expect(nextRunAfter("* * * * *", "UTC", at("2025-01-01T00:00:59.999Z"))?.toISOString()).toBe("2025-01-01T00:01:00.000Z");
    expect(nextRunAfter("0 12 * * *", "UTC", at("2025-01-01T11:59:30Z"))?.toISOString()).toBe("2025-01-01T12:00:00.000Z");
  });

  it("handles steps, ranges and lists", () => {
    expect(runs("*/15 * * * *", "UTC", "2025-01-01T00:00:00Z", 4)).toEqual([
      "2025-01-01T00:15:00.000Z",
      "2025-01-01T00:30:00.000Z",
      "2025-01-01T00:45:00.000Z",
      "2025-01-01T01:00:00.000Z",
    ]);
    expect(runs("0 9-17/4 * * *", "UTC", "2025-01-01T00:00:00Z", 4)).toEqual([
      "2025-01-01T09:00:00.000Z",
      "2025-01-01T13:00:00.000Z",
      "2025-01-01T17:00:00.000Z",
      "2025-01-02T09:00:00.000Z",
    ]);
    expect(runs("5,35 1,2 * * *", "UTC", "2025-01-01T00:00:00Z", 5)).toEqual([
      "2025-01-01T01:05:00.000Z",
      "2025-01-01T01:35:00.000Z",
      "2025-01-01T02:05:00.000Z",
      "2025-01-01T02:35:00.000Z",
      "2025-01-02T01:05:00.000Z",
    ]);
  });

  it("reads weekday and month names, and 7 as Sunday", () => {
    // 2025-01-03 is a Friday.
    expect(runs("0 9 * * MON-FRI", "UTC", "2025-01-03T10:00:00Z", 2)).toEqual(["2025-01-06T09:00:00.000Z", "2025-01-07T09:00:00.000Z"]);
    expect(runs("0 9 * * mon-fri", "UTC", "2025-01-03T10:00:00Z", 1)).toEqual(["2025-01-06T09:00:00.000Z"]);
    expect(runs("0 0 * * 7", "UTC", "2025-01-01T00:00:00Z", 1)).toEqual(["2025-01-05T00:00:00.000Z"]);
    expect(runs("0 0 * * FRI-SUN", "UTC", "2025-01-01T00:00:00Z", 4)).toEqual([
      "2025-01-03T00:00:00.000Z",
      "2025-01-04T00:00:00.000Z",
      "2025-01-05T00:00:00.000Z",
      "2025-01-10T00:00:00.000Z",
    ]);
    expect(runs("0 0 1 JAN,JUL *", "UTC", "2025-01-01T00:00:00Z", 3)).toEqual([
      "2025-07-01T00:00:00.000Z",
      "2026-01-01T00:00:00.000Z",
      "2026-07-01T00:00:00.000Z",
    ]);
  });

  it("combines a restricted day of month and day of week with OR, as Vixie cron does", () => {
    // The 13th, or any Friday.
    expect(runs("0 0 13 * FRI", "UTC", "2025-01-01T00:00:00Z", 3)).toEqual([
      "2025-01-03T00:00:00.000Z",
      "2025-01-10T00:00:00.000Z",
      "2025-01-13T00:00:00.000Z",
    ]);
  });

  it("skips months without the day (31st) and finds Feb 29 in leap years only", () => {
    expect(runs("0 0 31 * *", "UTC", "2025-01-31T00:00:00Z", 3)).toEqual([
      "2025-03-31T00:00:00.000Z",
      "2025-05-31T00:00:00.000Z",
      "2025-07-31T00:00:00.000Z",
    ]);
    expect(runs("0 0 29 2 *", "UTC", "2025-01-01T00:00:00Z", 2)).toEqual(["2028-02-29T00:00:00.000Z", "2032-02-29T00:00:00.000Z"]);
    expect(runs("30 23 28-31 2 *", "UTC", "2024-02-27T00:00:00Z", 3)).toEqual([
      "2024-02-28T23:30:00.000Z",
      "2024-02-29T23:30:00.000Z",
      "2025-02-28T23:30:00.000Z",
    ]);
  });

  it("returns null for a schedule that never fires", () => {
    expect(nextRunAfter("0 0 30 2 *", "UTC", at("2025-01-01T00:00:00Z"))).toBeNull();
  });

  it("fires in the zone's wall-clock time", () => {
    // 09:00 in Tokyo (UTC+9, no DST) is 00:00 UTC.
    expect(runs("0 9 * * *", "Asia/Tokyo", "2025-06-01T00:00:00Z", 1)).toEqual(["2025-06-02T00:00:00.000Z"]);
    // 09:00 in New York is 14:00 UTC in winter (EST) and 13:00 UTC in summer (EDT).
    expect(runs("0 9 * * *", "America/New_York", "2025-01-15T00:00:00Z", 1)).toEqual(["2025-01-15T14:00:00.000Z"]);
    expect(runs("0 9 * * *", "America/New_York", "2025-07-15T00:00:00Z", 1)).toEqual(["2025-07-15T13:00:00.000Z"]);
  });
});

describe("DST transitions", () => {
  // America/New_York 2025: clocks go 02:00 EST → 03:00 EDT on March 9 (07:00Z), and
  // 02:00 EDT → 01:00 EST on November 2 (06:00Z), so 01:00-02:00 happens twice.
  it("New York spring forward: a fixed time in the gap fires at the end of the gap, once", () => {
    expect(runs("30 2 * * *", "America/New_York", "2025-03-08T12:00:00Z", 3)).toEqual([
      "2025-03-09T07:00:00.000Z", // 03:00 EDT: 02:30 does not exist that day
      "2025-03-10T06:30:00.000Z", // 02:30 EDT
      "2025-03-11T06:30:00.000Z",
    ]);
  });

  it("New York spring forward: an interval schedule skips the missing hour", () => {
    expect(runs("*/30 * * * *", "America/New_York", "2025-03-09T06:10:00Z", 3)).toEqual([
      "2025-03-09T06:30:00.000Z", // 01:30 EST
      "2025-03-09T07:00:00.000Z", // 03:00 EDT (02:00 and 02:30 do not exist)
      "2025-03-09T07:30:00.000Z",
    ]);
  });

  it("New York fall back: a fixed time in the repeated hour fires once, at its first occurrence", () => {
    expect(runs("30 1 * * *", "America/New_York", "2025-11-01T12:00:00Z", 2)).toEqual([
      "2025-11-02T05:30:00.000Z", // 01:30 EDT; 01:30 EST (06:30Z) is skipped
      "2025-11-03T06:30:00.000Z", // 01:30 EST
    ]);
  });

  it("New York fall back: an interval schedule fires on both passes through the repeated hour", () => {
    expect(runs("*/30 * * * *", "America/New_York", "2025-11-02T04:10:00Z", 6)).toEqual([
      "2025-11-02T04:30:00.000Z", // 00:30 EDT
      "2025-11-02T05:00:00.000Z", // 01:00 EDT
      "2025-11-02T05:30:00.000Z", // 01:30 EDT
      "2025-11-02T06:00:00.000Z", // 01:00 EST
      "2025-11-02T06:30:00.000Z", // 01:30 EST
      "2025-11-02T07:00:00.000Z", // 02:00 EST
    ]);
  });

  // Europe/Berlin 2025: 02:00 CET → 03:00 CEST on March 30 (01:00Z); 03:00 CEST → 02:00 CET on
  // October 26 (01:00Z), so 02:00-03:00 happens twice.
  it("Berlin spring forward and fall back for a fixed 02:30", () => {
    expect(runs("30 2 * * *", "Europe/Berlin", "2025-03-29T12:00:00Z", 2)).toEqual([
      "2025-03-30T01:00:00.000Z", // 03:00 CEST, right after the gap
      "2025-03-31T00:30:00.000Z", // 02:30 CEST
    ]);
    expect(runs("30 2 * * *", "Europe/Berlin", "2025-10-25T12:00:00Z", 2)).toEqual([
      "2025-10-26T00:30:00.000Z", // 02:30 CEST, the first of the two
      "2025-10-27T01:30:00.000Z", // 02:30 CET
    ]);
  });

  it("Berlin hourly schedule across both changes: 23 and 25 firings on those days", () => {
    const springDay = nextRunsAfter("0 * * * *", "Europe/Berlin", at("2025-03-29T22:59:00Z"), 30).filter(
      (date) => date < at("2025-03-30T22:00:00Z"),
    );
    expect(springDay).toHaveLength(23);
    const fallDay = nextRunsAfter("0 * * * *", "Europe/Berlin", at("2025-10-25T21:59:00Z"), 30).filter(
      (date) => date < at("2025-10-26T23:00:00Z"),
    );
    expect(fallDay).toHaveLength(25);
  });
});

describe("normalizeSchedule", () => {
  it("accepts the 5-field forms and collapses whitespace", () => {
    for (const schedule of ["* * * * *", "*/5 0-23/2 1,15 JAN-JUN mon-fri", "0 0 1-31/2 * *", "59 23 31 12 7"]) {
      expect(() => normalizeSchedule(schedule)).not.toThrow();
    }
    expect(normalizeSchedule("  0   9 *\t* 1-5 ")).toBe("0 9 * * 1-5");
  });

  it.each([
    ["0 25 * * *", 'schedule: hour field "25" is out of range 0-23'],
    ["60 * * * *", 'schedule: minute field "60" is out of range 0-59'],
    ["0 0 0 * *", 'schedule: day-of-month field "0" is out of range 1-31'],
    ["0 0 32 * *", 'schedule: day-of-month field "32" is out of range 1-31'],
    ["0 0 * 13 *", 'schedule: month field "13" is out of range 1-12'],
    ["0 0 * * 8", 'schedule: day-of-week field "8" is out of range 0-7'],
    ["0 0 * FOO *", 'schedule: month field "FOO": "FOO" is neither a number 1-12 nor a name'],
    ["0 0 * * FUN", 'schedule: day-of-week field "FUN": "FUN" is neither a number 0-7 nor a name'],
    ["0 MON * * *", 'schedule: hour field "MON": "MON" is not a number 0-23'],
    ["1,70 * * * *", 'schedule: minute field "70" is out of range 0-59'],
    ["5-2 * * * *", 'schedule: minute field "5-2": the range starts after it ends'],
    ["*/0 * * * *", 'schedule: minute field "*/0": the step must be a whole number of at least 1'],
    ["*/61 * * * *", 'schedule: minute field "*/61": the step 61 is larger than 60'],
    ["5/15 * * * *", 'schedule: minute field "5/15": a step needs * or a range before it'],
    ["1,,2 * * * *", "schedule: minute field has an empty list item"],
    ["0 0 L * *", 'schedule: day-of-month field "L": "L" is not a number 1-31'],
    ["0 0 * * MON#2", 'schedule: day-of-week field "MON#2": "#" is not supported'],
    ["0 0 ? * *", 'schedule: day-of-month field "?": "?" is not supported'],
    ["0 0 15W * *", 'schedule: day-of-month field "15W": "15W" is not a number 1-31'],
    ["* * * *", "schedule: expected 5 fields (minute hour day-of-month month day-of-week), got 4"],
    ["0 * * * * *", "schedule: expected 5 fields (minute hour day-of-month month day-of-week), got 6 in \"0 * * * * *\" (a seconds field is not supported)"],
    ["", "schedule: expected 5 fields"],
    ["@daily", 'schedule: macros such as "@daily" are not supported'],
    ["every day", "schedule: expected 5 fields"],
  ])("refuses %j naming the field", (schedule, message) => {
    expect(() => normalizeSchedule(schedule)).toThrow(message);
    try {
      normalizeSchedule(schedule);
    } catch (error) {
      expect(error).toMatchObject({ code: "INVALID_INPUT" });
    }
  });
});

describe("normalizeTimezone", () => {
  it("accepts IANA names in their canonical spelling", () => {
    expect(normalizeTimezone("UTC")).toBe("UTC");
    expect(normalizeTimezone("utc")).toBe("UTC");
    expect(normalizeTimezone("Europe/Berlin")).toBe("Europe/Berlin");
    expect(normalizeTimezone("america/new_york")).toBe("America/New_York");
  });

  it.each(["Mars/Olympus_Mons", "+01:00", "UTC+1", "", "Europe/"])("refuses %j", (timezone) => {
    expect(() => normalizeTimezone(timezone)).toThrow(`timezone: "${timezone}" is not an IANA time zone name`);
  });
});
