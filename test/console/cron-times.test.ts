import { describe, expect, it } from "vitest";
import { fieldOfError, formatZonedDateTime, isoToZonedWallTime, timezoneChoices, zonedWallTimeToIso } from "../../web/src/lib/cron-times.js";
import { formatTimeUntil } from "../../web/src/lib/format.js";

describe("timezoneChoices", () => {
  it("puts the browser's zone first, then UTC, then the rest, each once", () => {
    const supported = ["Africa/Abidjan", "Europe/Berlin", "Pacific/Auckland"];
    expect(timezoneChoices("Europe/Berlin", supported)).toEqual(["Europe/Berlin", "UTC", "Africa/Abidjan", "Pacific/Auckland"]);
    expect(timezoneChoices("UTC", supported)).toEqual(["UTC", "Africa/Abidjan", "Europe/Berlin", "Pacific/Auckland"]);
  });
});

describe("formatZonedDateTime", () => {
  it("reads one instant on each zone's wall clock, with the zone's abbreviation", () => {
    const instant = "2025-01-06T08:00:00.000Z"; // a Monday
    expect(formatZonedDateTime(instant, "UTC")).toBe("Mon 2025-01-06 08:00 UTC");
    expect(formatZonedDateTime(instant, "Europe/Berlin")).toBe("Mon 2025-01-06 09:00 GMT+1");
    expect(formatZonedDateTime(instant, "America/New_York")).toBe("Mon 2025-01-06 03:00 EST");
    // Crossing the date line changes the day too.
    expect(formatZonedDateTime("2025-01-06T23:30:00.000Z", "Asia/Kolkata")).toBe("Tue 2025-01-07 05:00 GMT+5:30");
    expect(formatZonedDateTime(instant, "Europe/Berlin", { withWeekday: false })).toBe("2025-01-06 09:00 GMT+1");
  });

  it("writes midnight as 00:00 and follows daylight saving time", () => {
    expect(formatZonedDateTime("2025-01-05T23:00:00.000Z", "Europe/Berlin")).toBe("Mon 2025-01-06 00:00 GMT+1");
    expect(formatZonedDateTime("2025-07-07T07:00:00.000Z", "Europe/Berlin")).toBe("Mon 2025-07-07 09:00 GMT+2");
  });

  it("leaves what it cannot format as it came", () => {
    expect(formatZonedDateTime("not a date", "UTC")).toBe("not a date");
    expect(formatZonedDateTime("2025-01-06T08:00:00.000Z", "Mars/Olympus_Mons")).toBe("2025-01-06T08:00:00.000Z");
  });
});

describe("zonedWallTimeToIso", () => {
  it("finds the instant a zone's wall clock shows a datetime-local value", () => {
    expect(zonedWallTimeToIso("2025-01-06T09:00", "Europe/Berlin")).toBe("2025-01-06T08:00:00.000Z");
    expect(zonedWallTimeToIso("2025-07-07T09:00", "Europe/Berlin")).toBe("2025-07-07T07:00:00.000Z");
    expect(zonedWallTimeToIso("2025-01-06T09:00", "America/New_York")).toBe("2025-01-06T14:00:00.000Z");
    expect(zonedWallTimeToIso("2025-01-06T09:00:30", "UTC")).toBe("2025-01-06T09:00:30.000Z");
  });

  it("takes the first of a repeated hour and moves a skipped one forward by the gap", () => {
    // Berlin falls back at 03:00 CEST on 2025-10-26: 02:30 happens at 00:30Z and again at 01:30Z.
    expect(zonedWallTimeToIso("2025-10-26T02:30", "Europe/Berlin")).toBe("2025-10-26T00:30:00.000Z");
    // It springs forward at 02:00 CET on 2025-03-30: 02:30 never happens; 03:30 CEST is 01:30Z.
    expect(zonedWallTimeToIso("2025-03-30T02:30", "Europe/Berlin")).toBe("2025-03-30T01:30:00.000Z");
  });

  it("round-trips with isoToZonedWallTime", () => {
    for (const zone of ["UTC", "Europe/Berlin", "America/Los_Angeles", "Asia/Kathmandu"]) {
      const iso = zonedWallTimeToIso("2026-02-14T18:45", zone)!;
      expect(isoToZonedWallTime(iso, zone)).toBe("2026-02-14T18:45");
    }
  });

  it("is null for text that is not a datetime-local value or a zone that does not exist", () => {
    expect(zonedWallTimeToIso("", "UTC")).toBeNull();
    expect(zonedWallTimeToIso("2025-01-06 09:00", "UTC")).toBeNull();
    expect(zonedWallTimeToIso("2025-01-06T09:00", "Mars/Olympus_Mons")).toBeNull();
    expect(isoToZonedWallTime("2025-01-06T09:00:00Z", "Mars/Olympus_Mons")).toBe("");
  });
});

describe("fieldOfError", () => {
  it("names the field the server refused and keeps the rest of its message", () => {
    expect(fieldOfError('schedule: minute field "61" is out of range 0-59')).toEqual({
      field: "schedule",
      detail: 'minute field "61" is out of range 0-59',
    });
    expect(fieldOfError('timezone: "Mars/Base" is not an IANA time zone name')).toEqual({ field: "timezone", detail: '"Mars/Base" is not an IANA time zone name' });
    expect(fieldOfError("end_time: 2020-01-01T00:00:00.000Z is not in the future")?.field).toBe("endTime");
  });

  it("leaves other messages to the banner", () => {
    expect(fieldOfError("Thread 1234 not found")).toBeNull();
    expect(fieldOfError("count: must be between 1 and 100, got 0")).toBeNull();
  });
});

describe("formatTimeUntil", () => {
  it("says how far ahead an instant is, and that it is due once reached", () => {
    const now = new Date("2025-06-10T12:00:00Z");
    expect(formatTimeUntil("2025-06-10T12:00:10Z", now)).toBe("due now");
    expect(formatTimeUntil("2025-06-10T11:59:00Z", now)).toBe("due now");
    expect(formatTimeUntil("2025-06-10T12:01:00Z", now)).toBe("in 1 min");
    expect(formatTimeUntil("2025-06-10T12:45:00Z", now)).toBe("in 45 min");
    expect(formatTimeUntil("2025-06-10T17:00:00Z", now)).toBe("in 5 h");
    expect(formatTimeUntil("2025-06-13T12:00:00Z", now)).toBe("in 3 d");
    expect(formatTimeUntil(null, now)).toBe("—");
  });
});
