import { describe, expect, it } from "vitest";
import { renderMessages } from "../../src/tracing/render-messages.js";

describe("renderMessages: native format", () => {
  it("renders every block type and keeps tool_call_id on tool messages", () => {
    const inputs = {
      messages: [
        { role: "system", content: [{ type: "text", text: "You are terse." }] },
        {
          role: "user",
          content: [
            { type: "text", text: "What is in these?", annotations: [{ kind: "note" }], extras: { lang: "en" } },
            { type: "image", url: "https://example.com/cat.png", mime_type: "image/png" },
            { type: "file", base64: "JVBERi0xLjQK", mime_type: "application/pdf" },
            { type: "audio", id: "file-audio-1", mime_type: "audio/wav" },
            { type: "video", url: "https://example.com/clip.mp4" },
          ],
        },
        { role: "reasoning", content: [{ type: "reasoning", text: "The user wants a description." }] },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "Need the weather first.", extras: { signature: "sig" } },
            { type: "tool_call", id: "call_1", name: "get_weather", args: { city: "Paris" } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: [{ type: "text", text: "18°C, sunny" }] },
      ],
    };
    const outputs = {
      messages: [
        {
          role: "assistant",
          content: [
            { type: "server_tool_call", id: "srv_1", name: "web_search", args: { query: "Paris weather" } },
            { type: "server_tool_result", tool_call_id: "srv_1", status: "success", output: [{ url: "https://w.example" }] },
            { type: "text", text: "It is sunny in Paris." },
          ],
          usage_metadata: { input_tokens: 12, output_tokens: 7 },
        },
      ],
    };

    const rendered = renderMessages(inputs, outputs);

    expect(rendered.format).toBe("native");
    expect(rendered.warnings).toEqual([]);
    expect(rendered.input_messages).toEqual(inputs.messages);
    expect(rendered.output_messages).toEqual(outputs.messages);
  });

  it("turns string content into one text block", () => {
    const rendered = renderMessages(
      { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] },
      { messages: [{ role: "assistant", content: [{ type: "reasoning", text: "hmm" }, { type: "text", text: "hello" }] }] },
    );
    expect(rendered.format).toBe("native");
    const fromString = renderMessages({ messages: [{ role: "reasoning", content: "thinking out loud" }] }, null);
    expect(fromString.format).toBe("native");
    expect(fromString.input_messages).toEqual([{ role: "reasoning", content: [{ type: "text", text: "thinking out loud" }] }]);
  });

  it("warns about a tool_call_id that matches no earlier tool call", () => {
    const rendered = renderMessages(
      {
        messages: [
          { role: "user", content: [{ type: "text", text: "weather?" }] },
          { role: "assistant", content: [{ type: "tool_call", id: "call_1", name: "get_weather", args: {} }] },
          { role: "tool", tool_call_id: "call_1", content: [{ type: "text", text: "sunny" }] },
          { role: "tool", tool_call_id: "call_9", content: [{ type: "text", text: "rain" }] },
        ],
      },
      // A tool call in the outputs does not legitimise an input tool message that came before it.
      { messages: [{ role: "tool", tool_call_id: "call_2", content: [{ type: "text", text: "?" }] }] },
    );
    expect(rendered.warnings).toEqual([
      'input message 3: tool_call_id "call_9" matches no earlier tool call',
      'output message 0: tool_call_id "call_2" matches no earlier tool call',
    ]);
    // The offending messages are still rendered.
    expect(rendered.input_messages[3]).toMatchObject({ role: "tool", tool_call_id: "call_9" });
  });

  it("accepts an output tool message answering an input tool call", () => {
    const rendered = renderMessages(
      { messages: [{ role: "assistant", content: [{ type: "tool_call", id: "call_1", args: {} }] }] },
      { messages: [{ role: "tool", tool_call_id: "call_1", content: [{ type: "text", text: "done" }] }] },
    );
    expect(rendered.warnings).toEqual([]);
  });

  it("warns about a media block with neither url nor base64 nor id, and keeps it", () => {
    const rendered = renderMessages(
      { messages: [{ role: "user", content: [{ type: "text", text: "look" }, { type: "image", mime_type: "image/png" }] }] },
      null,
    );
    expect(rendered.warnings).toEqual(["input message 0: image block has neither url nor base64 nor id"]);
    expect(rendered.input_messages[0].content[1]).toEqual({ type: "image", mime_type: "image/png" });
  });

  it("keeps an unknown block type verbatim with a warning", () => {
    const hologram = { type: "hologram", frames: 3 };
    const rendered = renderMessages(
      { messages: [{ role: "user", content: [{ type: "text", text: "see" }, hologram] }] },
      null,
    );
    expect(rendered.format).toBe("native");
    expect(rendered.input_messages[0].content).toEqual([
      { type: "text", text: "see" },
      { type: "unknown", original: hologram },
    ]);
    expect(rendered.warnings).toEqual(['input message 0: unknown content block type "hologram" (kept verbatim)']);
  });

  it("warns about an unknown role and renders it by side", () => {
    const rendered = renderMessages(
      { messages: [{ role: "narrator", content: [{ type: "text", text: "Once upon a time" }] }] },
      { messages: [{ role: "bard", content: [{ type: "text", text: "…" }] }] },
    );
    expect(rendered.input_messages[0].role).toBe("user");
    expect(rendered.output_messages[0].role).toBe("assistant");
    expect(rendered.warnings).toEqual([
      'input message 0: unknown role "narrator" (rendered as user)',
      'output message 0: unknown role "bard" (rendered as assistant)',
    ]);
  });

  it("keeps malformed known blocks as unknown with the reason", () => {
    const rendered = renderMessages(
      {
        messages: [
          {
            role: "assistant",
            content: [
              { type: "text", text: 42 },
              { type: "server_tool_result", tool_call_id: "srv_1", status: "maybe" },
            ],
          },
        ],
      },
      null,
    );
    expect(rendered.input_messages[0].content.map((block) => block.type)).toEqual(["unknown", "unknown"]);
    expect(rendered.warnings).toEqual([
      'input message 0: invalid "text" block: text is not a string (kept verbatim)',
      'input message 0: invalid "server_tool_result" block: status must be "success" or "error" (kept verbatim)',
    ]);
  });

  it("never throws on shapes it does not know", () => {
    for (const [inputs, outputs] of [
      [{ prompt: "hello" }, { answer: 42 }],
      ["just a string", 7],
      [{ messages: [1, 2, 3] }, [1, 2, 3]],
      [{ messages: "not a list" }, { messages: null }],
    ] as const) {
      const rendered = renderMessages(inputs, outputs);
      expect(rendered.format).toBe("unrecognized");
      expect(rendered.input_messages).toEqual([]);
      expect(rendered.output_messages).toEqual([]);
      expect(rendered.warnings.length).toBeGreaterThan(0);
    }
  });

  it("does not warn about absent inputs or outputs", () => {
    expect(renderMessages(null, undefined)).toEqual({
      format: "unrecognized",
      input_messages: [],
      output_messages: [],
      warnings: [],
    });
  });
});
