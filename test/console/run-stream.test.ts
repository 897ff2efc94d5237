import { describe, expect, it } from "vitest";
import { messagesOfValues } from "../../web/src/lib/chat-messages.js";
import { applyRunEvent, conversationOf, endRunStream, startRunStream, type RunEventLike } from "../../web/src/lib/run-stream.js";

const human = { id: "h1", type: "human", content: "hello" };
const token = (seq: number, text: string, id = "run-abc"): RunEventLike => ({
  seq,
  event: "messages",
  mode: "messages",
  data: [{ id, type: "AIMessageChunk", content: text }, { langgraph_node: "agent" }],
});

function fold(events: RunEventLike[]) {
  return events.reduce(applyRunEvent, startRunStream("run-1"));
}

describe("applyRunEvent", () => {
  it("streams tokens into a partial message until a values event holds the finished one", () => {
    const events: RunEventLike[] = [
      { seq: 1, event: "metadata", mode: "metadata", data: { run_id: "run-1", attempt: 1 } },
      { seq: 2, event: "values", mode: "values", data: { messages: [human] } },
      token(3, "Echo"),
      token(4, " from"),
    ];
    const midway = fold(events);
    expect(midway.phase).toBe("running");
    expect(midway.tokenChunks).toBe(2);
    expect(conversationOf(null, midway, "hello").map((message) => [message.role, message.text, message.isStreaming])).toEqual([
      ["user", "hello", false],
      ["assistant", "Echo from", true],
    ]);

    // The finished message may carry another id than its chunks did; the values event wins.
    const finished = applyRunEvent(midway, {
      seq: 5,
      event: "values",
      mode: "values",
      data: { messages: [human, { id: "other-id", type: "ai", content: "Echo from offline" }] },
    });
    expect(finished.partials).toEqual([]);
    expect(conversationOf(null, endRunStream(finished), null).map((message) => message.text)).toEqual(["hello", "Echo from offline"]);
  });

  it("shows the pending user message until the run's first state arrives", () => {
    const pending = startRunStream("run-1");
    const thread = { messages: [human, { id: "a1", type: "ai", content: "earlier answer" }] };
    expect(conversationOf(thread, pending, "next question").map((message) => message.text)).toEqual([
      "hello",
      "earlier answer",
      "next question",
    ]);
  });

  it("records finished nodes and interrupts from updates, keeping state out of interrupt-only values", () => {
    const state = fold([
      { seq: 1, event: "values", mode: "values", data: { messages: [human] } },
      { seq: 2, event: "updates", mode: "updates", data: { first: { count: 1 } } },
      { seq: 3, event: "updates", mode: "updates", data: { __interrupt__: [{ id: "i1", value: { question: "approve?" } }] } },
      { seq: 4, event: "values", mode: "values", data: { __interrupt__: [{ id: "i1", value: { question: "approve?" } }] } },
    ]);
    expect(state.finishedNodes).toEqual(["first"]);
    expect(state.interrupts).toEqual([{ id: "i1", value: { question: "approve?" } }]);
    expect(state.values).toEqual({ messages: [human] });
  });

  it("keeps the error event and ignores replayed events it has seen", () => {
    const state = fold([
      token(1, "a"),
      token(1, "a"),
      { seq: 2, event: "error", mode: "error", data: { error: "Error", message: "the fixture graph failed on purpose" } },
    ]);
    expect(state.partials[0].text).toBe("a");
    expect(state.error).toEqual({ error: "Error", message: "the fixture graph failed on purpose" });
  });

  it("reads messages mode's partial and complete events too", () => {
    const state = fold([
      { seq: 1, event: "messages/partial", mode: "messages", data: [{ id: "m", type: "ai", content: "Hel" }] },
      { seq: 2, event: "messages/partial", mode: "messages", data: [{ id: "m", type: "ai", content: "Hello" }] },
    ]);
    expect(state.partials.map((partial) => partial.text)).toEqual(["Hello"]);
  });
});

describe("messagesOfValues", () => {
  it("reads LangChain dicts, chat dicts, content blocks and tool calls", () => {
    const messages = messagesOfValues({
      messages: [
        { type: "system", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "look" }, { type: "image_url", image_url: "x" }] },
        { id: "a", type: "ai", content: "", tool_calls: [{ id: "c1", name: "search", args: { q: "hangar" } }] },
        { type: "tool", name: "search", tool_call_id: "c1", content: "found" },
      ],
    });
    expect(messages.map(({ role, text }) => [role, text])).toEqual([
      ["system", "Be brief."],
      ["user", "look[image]"],
      ["assistant", ""],
      ["tool", "found"],
    ]);
    expect(messages[2].toolCalls).toEqual([{ id: "c1", name: "search", args: { q: "hangar" } }]);
    expect(messages[2].key).toBe("a");
    expect(messagesOfValues({ count: 1 })).toEqual([]);
  });
});

describe("tasks events (the graph view's live node states)", () => {
  const task = (seq: number, data: Record<string, unknown>, event = "tasks"): RunEventLike => ({ seq, event, mode: "tasks", data });

  it("keeps a node active from its task's start to its end, and records the interrupts it ended with", () => {
    const started = fold([task(1, { id: "t1", name: "plan", input: {}, triggers: ["start:plan"] })]);
    expect(started.activeNodes).toEqual(["plan"]);
    const ended = fold([
      task(1, { id: "t1", name: "plan", input: {}, triggers: ["start:plan"] }),
      task(2, { id: "t1", name: "plan", result: [["notes", ["plan done"]]], interrupts: [] }),
      task(3, { id: "t2", name: "review", input: {}, triggers: ["branch:to:review"] }),
      task(4, { id: "t2", name: "review", result: [], interrupts: [{ id: "i1", value: { question: "ok?" } }] }),
    ]);
    expect(ended.activeNodes).toEqual([]);
    expect(ended.interruptedNodes).toEqual({ review: [{ question: "ok?" }] });
  });

  it("ignores subgraph tasks, keeps a node active while another of its tasks runs, and ends with nothing active", () => {
    const state = fold([
      task(1, { id: "a", name: "fan", input: {}, triggers: ["x"] }),
      task(2, { id: "b", name: "fan", input: {}, triggers: ["x"] }),
      task(3, { id: "c", name: "search", input: {}, triggers: ["y"] }, "tasks|research:123"),
      task(4, { id: "a", name: "fan", result: [], interrupts: [] }),
    ]);
    expect(state.activeNodes).toEqual(["fan"]);
    expect(endRunStream(state).activeNodes).toEqual([]);
  });
});
