import { describe, expect, it } from "vitest";
import { graphInterruptValues, isGraphInterruptError, traceRunStatus } from "../../src/domain/trace-run-status.js";

/** A GraphInterrupt as LangChain JS's tracer records it: the message, a blank line, the stack. */
const JS_INTERRUPT = `[\n  {\n    "id": "abc",\n    "value": {"question": "Send it?"}\n  }\n]\n\nGraphInterrupt: [\n  {\n    "id": "abc"\n  }\n]\n    at interrupt (file:///x/interrupt.js:1:1)`;

describe("traceRunStatus", () => {
  it("reads a LangGraph interrupt as interrupted, not as an error", () => {
    expect(traceRunStatus({ status: null, error: JS_INTERRUPT, endTime: "2026-01-01T00:00:00.000000Z" })).toBe("interrupted");
    expect(traceRunStatus({ status: null, error: "GraphInterrupt((Interrupt(value='ok?'),))", endTime: null })).toBe("interrupted");
    expect(traceRunStatus({ status: null, error: "NodeInterrupt: stop\n    at node", endTime: null })).toBe("interrupted");
  });

  it("says error for it on LangSmith's wire, which has no interrupted status", () => {
    expect(traceRunStatus({ status: null, error: JS_INTERRUPT, endTime: "2026-01-01T00:00:00.000000Z" }, "langsmith")).toBe("error");
  });

  it("keeps a sent status, and errors, successes and pending runs as before", () => {
    expect(traceRunStatus({ status: "error", error: JS_INTERRUPT, endTime: null })).toBe("error");
    expect(traceRunStatus({ status: null, error: "TypeError: x is undefined\n    at GraphInterruptHelper", endTime: null })).toBe("error");
    expect(traceRunStatus({ status: null, error: null, endTime: "2026-01-01T00:00:00.000000Z" })).toBe("success");
    expect(traceRunStatus({ status: null, error: null, endTime: null })).toBe("pending");
  });
});

describe("graphInterruptValues", () => {
  it("returns what interrupt() asked, or null when the error is no interrupt or not JSON", () => {
    expect(graphInterruptValues(JS_INTERRUPT)).toEqual([{ question: "Send it?" }]);
    expect(graphInterruptValues("GraphInterrupt((Interrupt(value='ok?'),))")).toBeNull();
    expect(graphInterruptValues("Error: boom")).toBeNull();
    expect(isGraphInterruptError("Error: boom")).toBe(false);
  });
});
