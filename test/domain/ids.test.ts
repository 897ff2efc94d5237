import { describe, expect, it } from "vitest";
import { systemAssistantId } from "../../src/domain/ids.js";

describe("systemAssistantId: a graph's system assistant id, as LangGraph Platform derives it", () => {
  it("is uuid5 of the graph id in LangGraph's namespace (value computed by Python's uuid.uuid5)", () => {
    expect(systemAssistantId("agent")).toBe("fe096781-5601-53d2-b2f6-0d3403f7e9ca");
  });

  it("answers the same id on every call (it is remembered after the first), and another id for another graph", () => {
    const first = systemAssistantId("echo");
    expect(systemAssistantId("echo")).toBe(first);
    expect(systemAssistantId("sleepy")).not.toBe(first);
    expect(systemAssistantId("agent")).toBe("fe096781-5601-53d2-b2f6-0d3403f7e9ca");
  });
});
