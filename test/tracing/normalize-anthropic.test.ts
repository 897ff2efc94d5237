import { describe, expect, it } from "vitest";
import { renderMessages } from "../../src/tracing/render-messages.js";

/** A Messages API response as Anthropic returns it. */
function response(content: unknown[]) {
  return {
    id: "msg_01XFDUDYJgAACzvnptvVoYEL",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5-20250929",
    content,
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 2095, output_tokens: 503, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

describe("renderMessages: Anthropic messages", () => {
  it("renders a string system prompt and string content", () => {
    const rendered = renderMessages(
      { model: "claude-sonnet-4-5", max_tokens: 1024, system: "You are a pirate.", messages: [{ role: "user", content: "Hello" }] },
      response([{ type: "text", text: "Ahoy!" }]),
    );
    expect(rendered.format).toBe("anthropic");
    expect(rendered.warnings).toEqual([]);
    expect(rendered.input_messages).toEqual([
      { role: "system", content: [{ type: "text", text: "You are a pirate." }] },
      { role: "user", content: [{ type: "text", text: "Hello" }] },
    ]);
    expect(rendered.output_messages).toEqual([{ role: "assistant", content: [{ type: "text", text: "Ahoy!" }] }]);
  });

  it("renders system given as text blocks (with cache_control)", () => {
    const rendered = renderMessages(
      {
        system: [
          { type: "text", text: "You answer questions about the novel." },
          { type: "text", text: "<the entire novel>", cache_control: { type: "ephemeral" } },
        ],
        messages: [{ role: "user", content: [{ type: "text", text: "Who is the narrator?" }] }],
      },
      null,
    );
    expect(rendered.format).toBe("anthropic");
    expect(rendered.input_messages[0]).toEqual({
      role: "system",
      content: [
        { type: "text", text: "You answer questions about the novel." },
        { type: "text", text: "<the entire novel>" },
      ],
    });
  });

  it("renders images from base64 and url sources, and documents", () => {
    const rendered = renderMessages(
      {
        messages: [
          {
            role: "user",
            content: [
              { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/4AAQSkZJRg==" } },
              { type: "image", source: { type: "url", url: "https://upload.wikimedia.org/ant.jpg" } },
              { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0xLjQK" } },
              { type: "document", source: { type: "text", media_type: "text/plain", data: "Grass is green." }, title: "Facts" },
              { type: "text", text: "Describe them." },
            ],
          },
        ],
      },
      null,
    );
    expect(rendered.warnings).toEqual([]);
    expect(rendered.input_messages[0].content).toEqual([
      { type: "image", base64: "/9j/4AAQSkZJRg==", mime_type: "image/jpeg" },
      { type: "image", url: "https://upload.wikimedia.org/ant.jpg" },
      { type: "file", base64: "JVBERi0xLjQK", mime_type: "application/pdf" },
      { type: "text", text: "Grass is green.", extras: { document: true, title: "Facts" } },
      { type: "text", text: "Describe them." },
    ]);
  });

  it("renders tool_use as tool_call and splits tool_result into tool messages", () => {
    const rendered = renderMessages(
      {
        messages: [
          { role: "user", content: "What's the weather in SF and NYC?" },
          {
            role: "assistant",
            content: [
              { type: "text", text: "Let me check." },
              { type: "tool_use", id: "toolu_01A", name: "get_weather", input: { location: "San Francisco, CA" } },
              { type: "tool_use", id: "toolu_01B", name: "get_weather", input: { location: "New York, NY" } },
            ],
          },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "toolu_01A", content: "15 degrees" },
              { type: "tool_result", tool_use_id: "toolu_01B", content: [{ type: "text", text: "Service down" }], is_error: true },
              { type: "text", text: "Thanks, summarise please." },
            ],
          },
        ],
      },
      response([{ type: "text", text: "SF is 15 degrees; NYC is unavailable." }]),
    );
    expect(rendered.warnings).toEqual([]);
    expect(rendered.input_messages).toEqual([
      { role: "user", content: [{ type: "text", text: "What's the weather in SF and NYC?" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me check." },
          { type: "tool_call", id: "toolu_01A", name: "get_weather", args: { location: "San Francisco, CA" } },
          { type: "tool_call", id: "toolu_01B", name: "get_weather", args: { location: "New York, NY" } },
        ],
      },
      { role: "tool", tool_call_id: "toolu_01A", content: [{ type: "text", text: "15 degrees" }] },
      { role: "tool", tool_call_id: "toolu_01B", content: [{ type: "text", text: "Service down", extras: { is_error: true } }] },
      { role: "user", content: [{ type: "text", text: "Thanks, summarise please." }] },
    ]);
  });

  it("warns about a tool_result whose tool_use_id was never requested", () => {
    const rendered = renderMessages(
      { messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_ghost", content: "?" }] }] },
      null,
    );
    expect(rendered.warnings).toEqual(['input message 0: tool_call_id "toolu_ghost" matches no earlier tool call']);
  });

  it("renders thinking and redacted_thinking as reasoning", () => {
    const rendered = renderMessages(
      { messages: [{ role: "user", content: "Is 1013 prime?" }] },
      response([
        { type: "thinking", thinking: "Check divisors up to 31…", signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3h" },
        { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix/LafPsn4a" },
        { type: "text", text: "Yes, 1013 is prime." },
      ]),
    );
    expect(rendered.format).toBe("anthropic");
    expect(rendered.output_messages[0].content).toEqual([
      { type: "reasoning", text: "Check divisors up to 31…", extras: { signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3h" } },
      { type: "reasoning", text: "", extras: { redacted: true, data: "EmwKAhgBEgy3va3pzix/LafPsn4a" } },
      { type: "text", text: "Yes, 1013 is prime." },
    ]);
  });

  it("renders server_tool_use and web_search_tool_result", () => {
    const results = [
      { type: "web_search_result", url: "https://en.wikipedia.org/wiki/Claude_Shannon", title: "Claude Shannon", encrypted_content: "EqgfCioIARgB", page_age: "April 30, 2025" },
    ];
    const rendered = renderMessages(
      { messages: [{ role: "user", content: "When was Claude Shannon born?" }], tools: [{ type: "web_search_20250305", name: "web_search" }] },
      response([
        { type: "text", text: "I'll search for that." },
        { type: "server_tool_use", id: "srvtoolu_01WYG3", name: "web_search", input: { query: "claude shannon birth date" } },
        { type: "web_search_tool_result", tool_use_id: "srvtoolu_01WYG3", content: results },
        { type: "server_tool_use", id: "srvtoolu_02", name: "web_search", input: { query: "again" } },
        { type: "web_search_tool_result", tool_use_id: "srvtoolu_02", content: { type: "web_search_tool_result_error", error_code: "max_uses_exceeded" } },
        {
          type: "text",
          text: "Claude Shannon was born on April 30, 1916.",
          citations: [{ type: "web_search_result_location", url: "https://en.wikipedia.org/wiki/Claude_Shannon", cited_text: "born April 30, 1916" }],
        },
      ]),
    );
    expect(rendered.warnings).toEqual([]);
    expect(rendered.output_messages[0].content).toEqual([
      { type: "text", text: "I'll search for that." },
      { type: "server_tool_call", id: "srvtoolu_01WYG3", name: "web_search", args: { query: "claude shannon birth date" } },
      { type: "server_tool_result", tool_call_id: "srvtoolu_01WYG3", status: "success", output: results },
      { type: "server_tool_call", id: "srvtoolu_02", name: "web_search", args: { query: "again" } },
      {
        type: "server_tool_result",
        tool_call_id: "srvtoolu_02",
        status: "error",
        output: { type: "web_search_tool_result_error", error_code: "max_uses_exceeded" },
      },
      {
        type: "text",
        text: "Claude Shannon was born on April 30, 1916.",
        annotations: [{ type: "web_search_result_location", url: "https://en.wikipedia.org/wiki/Claude_Shannon", cited_text: "born April 30, 1916" }],
      },
    ]);
  });

  it("warns about an unknown block and an unknown role", () => {
    const rendered = renderMessages(
      { system: "s", messages: [{ role: "moderator", content: [{ type: "container_upload", file_id: "f1" }] }] },
      null,
    );
    expect(rendered.input_messages[1]).toEqual({ role: "user", content: [{ type: "unknown", original: { type: "container_upload", file_id: "f1" } }] });
    expect(rendered.warnings).toEqual([
      'input message 1: unknown role "moderator" (rendered as user)',
      'input message 1: unknown content block type "container_upload" (kept verbatim)',
    ]);
  });
});
