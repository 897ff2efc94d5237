import { describe, expect, it } from "vitest";
import { buildCostSeries, niceScale, utcDaysBetween } from "../../web/src/lib/cost-series.js";
import { formatLatency, formatTimeAgo, formatUsd, shortId, sumDecimals, tailId } from "../../web/src/lib/format.js";
import { parseRoute, routePath, type Route } from "../../web/src/lib/routes.js";
import { layoutTraceTree } from "../../web/src/lib/trace-tree.js";

describe("formats", () => {
  it("shows small costs with two significant digits and larger ones in cents", () => {
    expect(formatUsd("0.0000055")).toBe("$0.0000055");
    expect(formatUsd("0.000000123")).toBe("$0.00000012");
    expect(formatUsd("0.0123456")).toBe("$0.0123");
    expect(formatUsd("12.5")).toBe("$12.5");
    expect(formatUsd("1234.567")).toBe("$1,234.57");
    expect(formatUsd("0")).toBe("$0");
    expect(formatUsd(null)).toBe("—");
  });

  it("sums decimal strings exactly", () => {
    expect(sumDecimals(["0.1", "0.2"])).toBe("0.3");
    expect(sumDecimals(["0.0000055", "0.00001", "1"])).toBe("1.0000155");
    expect(sumDecimals([])).toBe("0");
    expect(sumDecimals(["-0.5", "0.25", null])).toBe("-0.25");
  });

  it("shortens ids from the side that tells them apart", () => {
    expect(shortId("920e1e91-0c8a-4d39-a8a5-5d8b4b3f2f10")).toBe("920e1e91");
    // Checkpoint ids are time-ordered: consecutive ones differ at the end.
    expect(tailId("1f1e60fd-e018-6520-8001-339a5792060c")).toBe("…5792060c");
    expect(tailId(null)).toBe("—");
  });

  it("formats latencies and ages", () => {
    expect(formatLatency(163.99)).toBe("164 ms");
    expect(formatLatency(1234)).toBe("1.23 s");
    expect(formatLatency(125_000)).toBe("2m 5s");
    const now = new Date("2025-06-10T12:00:00Z");
    expect(formatTimeAgo("2025-06-10T11:59:50Z", now)).toBe("just now");
    expect(formatTimeAgo("2025-06-10T11:55:00Z", now)).toBe("5 min ago");
    expect(formatTimeAgo("2025-06-08T12:00:00Z", now)).toBe("2 d ago");
    expect(formatTimeAgo("2025-01-01T00:00:00Z", now)).toBe("2025-01-01");
  });
});

describe("buildCostSeries", () => {
  it("lays usage out as days × models, filling quiet days, with exact totals", () => {
    const rows = [
      { day: "2025-06-01", model: "gpt-4o", totalCost: "0.1", totalTokens: 100, runCount: 1 },
      { day: "2025-06-03", model: "gpt-4o", totalCost: "0.2", totalTokens: 200, runCount: 2 },
      { day: "2025-06-03", model: "claude", totalCost: "0.5", totalTokens: 50, runCount: 1 },
      { day: "2025-06-03", model: null, totalCost: "0", totalTokens: 5, runCount: 1 },
    ];
    const series = buildCostSeries(rows, new Date("2025-06-01T00:00:00Z"), new Date("2025-06-04T00:00:00Z"));
    expect(series.days).toEqual(["2025-06-01", "2025-06-02", "2025-06-03"]);
    expect(series.models).toEqual(["claude", "gpt-4o", "(no model)"]);
    expect(series.costs).toEqual([
      [0, 0.1, 0],
      [0, 0, 0],
      [0.5, 0.2, 0],
    ]);
    expect(series.maxDayCost).toBeCloseTo(0.7);
    expect(series.totalCost).toBe("0.8");
    expect(series.costByModel).toEqual({ "gpt-4o": "0.3", claude: "0.5", "(no model)": "0" });
    expect(series.callCount).toBe(5);
  });

  it("counts the UTC days a range touches and picks round axis maxima", () => {
    expect(utcDaysBetween(new Date("2025-06-01T23:00:00Z"), new Date("2025-06-02T01:00:00Z"))).toEqual(["2025-06-01", "2025-06-02"]);
    expect(niceScale(0.7)).toEqual({ max: 0.8, ticks: [0, 0.2, 0.4, 0.6, 0.8] });
    expect(niceScale(0.0000055).max).toBeCloseTo(0.000006);
    expect(niceScale(0)).toEqual({ max: 1, ticks: [0, 1] });
  });
});

describe("routes", () => {
  it("round-trips every page through its path", () => {
    const routes: Route[] = [
      { page: "assistants" },
      { page: "assistant", assistantId: "a-1" },
      { page: "playground", assistantId: "a-1", threadId: "t-1" },
      { page: "playground", assistantId: null, threadId: null },
      { page: "threads" },
      { page: "thread", threadId: "t-1" },
      { page: "traces" },
      { page: "trace", traceId: "tr-1", runId: "r-2" },
      { page: "usage" },
      { page: "crons" },
      { page: "memory" },
    ];
    for (const route of routes) {
      const url = new URL(routePath(route), "http://x");
      expect(parseRoute(url.pathname, url.search)).toEqual(route);
    }
  });

  it("opens the assistants at / and refuses paths outside the console", () => {
    expect(parseRoute("/", "")).toEqual({ page: "assistants" });
    expect(parseRoute("/console", "")).toEqual({ page: "assistants" });
    expect(parseRoute("/threads", "")).toEqual({ page: "not-found", path: "/threads" });
    expect(parseRoute("/console/threads/a/b", "")).toMatchObject({ page: "not-found" });
  });
});

describe("layoutTraceTree", () => {
  it("indents children under parents and places bars on the trace's time span", () => {
    const runs = [
      { traceRunId: "root", parentRunId: null, dottedOrder: "1", startTime: "2025-01-01T00:00:00.000Z", latencyMs: 100 },
      { traceRunId: "llm", parentRunId: "node", dottedOrder: "1.1.1", startTime: "2025-01-01T00:00:00.050Z", latencyMs: 40 },
      { traceRunId: "node", parentRunId: "root", dottedOrder: "1.1", startTime: "2025-01-01T00:00:00.010Z", latencyMs: 80 },
    ];
    const rows = layoutTraceTree(runs);
    expect(rows.map((row) => [row.run.traceRunId, row.depth, row.hasChildren])).toEqual([
      ["root", 0, true],
      ["node", 1, true],
      ["llm", 2, false],
    ]);
    expect(rows[2].offset).toBeCloseTo(0.5);
    expect(rows[2].width).toBeCloseTo(0.4);
  });

  it("orders by start time without dotted_order and keeps orphans and cycles visible", () => {
    const at = (ms: number) => new Date(Date.UTC(2025, 0, 1) + ms).toISOString();
    const rows = layoutTraceTree([
      { traceRunId: "late-child", parentRunId: "root", startTime: at(50), latencyMs: 10 },
      { traceRunId: "early-child", parentRunId: "root", startTime: at(10), latencyMs: 10 },
      { traceRunId: "root", parentRunId: null, startTime: at(0), latencyMs: 100 },
      { traceRunId: "orphan", parentRunId: "not-loaded", startTime: at(20), latencyMs: 5 },
      { traceRunId: "a", parentRunId: "b", startTime: at(30) },
      { traceRunId: "b", parentRunId: "a", startTime: at(30) },
    ]);
    expect(rows.map((row) => `${row.depth}:${row.run.traceRunId}`)).toEqual([
      "0:root",
      "1:early-child",
      "1:late-child",
      "0:orphan",
      "0:a",
      "0:b",
    ]);
  });
});
