import { describe, expect, it } from "vitest";
import { parseDottedOrder, rootDottedOrder } from "../../src/tracing/ingest/dotted-order.js";
import { parseRunTime } from "../../src/tracing/ingest/parse-run-time.js";

describe("parseRunTime", () => {
  it.each([
    ["2024-05-01T12:34:56.123456Z", "2024-05-01T12:34:56.123456Z"],
    ["2024-05-01T12:34:56.123456", "2024-05-01T12:34:56.123456Z"], // no offset = UTC (Python's utcnow)
    ["2024-05-01T12:34:56.1234567+02:00", "2024-05-01T10:34:56.123456Z"], // past microseconds: truncated
    ["2024-05-01 12:34:56.5+00", "2024-05-01T12:34:56.500000Z"], // PostgreSQL's text form
    ["2024-12-31T23:30:00-01:00", "2025-01-01T00:30:00.000000Z"],
    ["2024-05-01", "2024-05-01T00:00:00.000000Z"],
    [1714566896123, "2024-05-01T12:34:56.123000Z"],
    [1714566896123.456, "2024-05-01T12:34:56.123456Z"], // fractional epoch ms keep microseconds
    ["1714566896123", "2024-05-01T12:34:56.123000Z"],
  ])("reads %j as %s", (input, expected) => {
    expect(parseRunTime(input)).toBe(expected);
  });

  it.each(["yesterday", "2024-02-30T00:00:00Z", "2024-13-01T00:00:00Z", "2024-05-01T25:00:00Z", "", Number.NaN, {}, null])(
    "refuses %j",
    (input) => {
      expect(parseRunTime(input)).toBeUndefined();
    },
  );
});

describe("dotted_order", () => {
  const root = "0f8f3c2e-1111-4a4a-8b8b-000000000001";
  const child = "0f8f3c2e-1111-4a4a-8b8b-000000000002";

  it("parses each segment into a microsecond start time and run id, root first", () => {
    const segments = parseDottedOrder(`20240501T123456123456Z${root}.20240501T123456200001Z${child}`);
    expect(segments).toEqual([
      { startTime: "2024-05-01T12:34:56.123456Z", runId: root },
      { startTime: "2024-05-01T12:34:56.200001Z", runId: child },
    ]);
  });

  it("refuses malformed segments", () => {
    expect(parseDottedOrder(`20240501T1234Z${root}`)).toBeUndefined();
    expect(parseDottedOrder(`20240501T123456123456Z${root}.garbage`)).toBeUndefined();
  });

  it("builds a root's dotted_order the way RunTree does", () => {
    expect(rootDottedOrder("2024-05-01T12:34:56.123001Z", root)).toBe(`20240501T123456123001Z${root}`);
  });
});
