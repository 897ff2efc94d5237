import { describe, expect, it } from "vitest";
import { hasLangChainJson, readableLangChainJson } from "../../web/src/lib/langchain-json.js";

const human = { lc: 1, type: "constructor", id: ["langchain_core", "messages", "HumanMessage"], kwargs: { content: "hi", additional_kwargs: {}, response_metadata: {} } };
const ai = {
  lc: 1,
  type: "constructor",
  id: ["langchain_core", "messages", "AIMessage"],
  kwargs: { content: "", tool_calls: [{ name: "search", args: { q: "x" }, id: "c1" }], invalid_tool_calls: [], id: "run-1" },
};

describe("readableLangChainJson", () => {
  it("shows serialized messages as their type and non-empty fields, wherever they are nested", () => {
    expect(readableLangChainJson({ messages: [human, ai], step: 2 })).toEqual({
      messages: [
        { type: "human", content: "hi" },
        { type: "ai", content: "", tool_calls: [{ name: "search", args: { q: "x" }, id: "c1" }], id: "run-1" },
      ],
      step: 2,
    });
  });

  it("names other serialized classes and leaves plain JSON as it is", () => {
    const document = { lc: 1, type: "constructor", id: ["langchain_core", "documents", "Document"], kwargs: { pageContent: "text" } };
    expect(readableLangChainJson([document, { lc: 2, type: "constructor" }, "x", null])).toEqual([
      { _class: "Document", pageContent: "text" },
      { lc: 2, type: "constructor" },
      "x",
      null,
    ]);
    expect(hasLangChainJson({ output: { messages: [human] } })).toBe(true);
    expect(hasLangChainJson({ messages: [{ type: "human", content: "hi" }] })).toBe(false);
  });
});
