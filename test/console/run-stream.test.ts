import { describe, expect, it } from "vitest";
import { ProtocolEventMapper } from "../../src/protocol/protocol-events.js";
import { messagesOfValues } from "../../web/src/lib/chat-messages.js";
import { applyThreadEvent, conversationOf, endRunStream, isRunEnd, startRunStream, type ThreadEventLike } from "../../web/src/lib/run-stream.js";

// The console's fold of a run's thread events, fed what the server's own protocol mapper makes of
// stored run events (`mode|namespace` names, JSON data), so both sides share one event model.

const human = { id: "h1", type: "human", content: "hello" };

/** Stored run events (name, data) as the protocol events the server sends, positions 1, 2, … */
function protocolEvents(stored: Array<[string, unknown]>): ThreadEventLike[] {
  const mapper = new ProtocolEventMapper();
  return stored.flatMap(([event, data], index) =>
    mapper.map({ runId: "run-1", threadId: "t", seq: index + 1, streamId: String(index + 1), event, data: JSON.stringify(data) }).map((mapped) => ({
      method: mapped.method,
      namespace: mapped.params.namespace,
      node: mapped.params.node ?? null,
      seq: mapped.seq,
      data: mapped.params.data,
    })),
  );
}

const fold = (events: ThreadEventLike[]) => events.reduce(applyThreadEvent, startRunStream("run-1"));
const token = (text: string, id = "run-abc"): [string, unknown] => ["messages", [{ id, type: "AIMessageChunk", content: text, tool_call_chunks: [] }, { langgraph_node: "agent" }]];

describe("applyThreadEvent", () => {
  it("streams tokens into a partial message until a values event holds the finished one", () => {
    const events = protocolEvents([["metadata", { run_id: "run-1" }], ["values", { messages: [human] }], token("Echo"), token(" from")]);
    const midway = fold(events);
    expect(midway.phase).toBe("running");
    expect(midway.tokenChunks).toBe(2);
    expect(conversationOf(null, midway, "hello").map((message) => [message.role, message.text, message.isStreaming, message.name])).toEqual([
      ["user", "hello", false, null],
      ["assistant", "Echo from", true, "agent"],
    ]);

    // The finished message may carry another id than its chunks did; the values event wins.
    const finished = fold(
      protocolEvents([
        ["metadata", { run_id: "run-1" }],
        ["values", { messages: [human] }],
        token("Echo"),
        token(" from"),
        ["values", { messages: [human, { id: "other-id", type: "ai", content: "Echo from offline" }] }],
      ]),
    );
    expect(finished.partials).toEqual([]);
    expect(conversationOf(null, endRunStream(finished), null).map((message) => message.text)).toEqual(["hello", "Echo from offline"]);
  });

  it("does not stream a node's whole human or tool message as tokens", () => {
    const state = fold(protocolEvents([["messages", [{ id: "t1", type: "tool", content: "found", tool_call_id: "c1" }, { langgraph_node: "tools" }]]]));
    expect(state.partials).toEqual([]);
    expect(state.tokenChunks).toBe(0);
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

  it("records finished nodes and interrupts (once each), keeping the state", () => {
    const interrupt = [{ id: "i1", value: { question: "approve?" } }];
    const events = protocolEvents([
      ["values", { messages: [human] }],
      ["updates", { first: { count: 1 } }],
      ["updates", { __interrupt__: interrupt }],
      ["values", { __interrupt__: interrupt }],
      ["run_done", { status: "success" }],
    ]);
    const state = fold(events);
    expect(state.finishedNodes).toEqual(["first"]);
    expect(state.interrupts).toEqual([{ id: "i1", value: { question: "approve?" } }]);
    expect(state.values).toEqual({ messages: [human] });
    // A run that stopped at interrupt() ends `interrupted`.
    expect(events.filter(isRunEnd).map((event) => (event.data as { event: string }).event)).toEqual(["interrupted"]);
  });

  it("keeps why a run failed, and its end", () => {
    const events = protocolEvents([token("a"), ["error", { error: "Error", message: "the fixture graph failed on purpose" }]]);
    const state = fold(events);
    expect(state.partials[0]!.text).toBe("a");
    expect(state.error).toEqual({ error: "Run failed", message: "the fixture graph failed on purpose" });
    expect(events.some(isRunEnd)).toBe(true);
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
  const task = (data: Record<string, unknown>, event = "tasks"): [string, unknown] => [event, data];

  it("keeps a node active from its task's start to its end, and records the interrupts it ended with", () => {
    const started = fold(protocolEvents([task({ id: "t1", name: "plan", input: {}, triggers: ["start:plan"] })]));
    expect(started.activeNodes).toEqual(["plan"]);
    const ended = fold(
      protocolEvents([
        task({ id: "t1", name: "plan", input: {}, triggers: ["start:plan"] }),
        task({ id: "t1", name: "plan", result: [["notes", ["plan done"]]], interrupts: [] }),
        task({ id: "t2", name: "review", input: {}, triggers: ["branch:to:review"] }),
        task({ id: "t2", name: "review", result: [], interrupts: [{ id: "i1", value: { question: "ok?" } }] }),
      ]),
    );
    expect(ended.activeNodes).toEqual([]);
    expect(ended.interruptedNodes).toEqual({ review: [{ question: "ok?" }] });
  });

  it("ignores subgraph tasks, keeps a node active while another of its tasks runs, and ends with nothing active", () => {
    const state = fold(
      protocolEvents([
        task({ id: "a", name: "fan", input: {}, triggers: ["x"] }),
        task({ id: "b", name: "fan", input: {}, triggers: ["x"] }),
        task({ id: "c", name: "search", input: {}, triggers: ["y"] }, "tasks|research:123"),
        task({ id: "a", name: "fan", result: [], interrupts: [] }),
      ]),
    );
    expect(state.activeNodes).toEqual(["fan"]);
    expect(endRunStream(state).activeNodes).toEqual([]);
  });
});
