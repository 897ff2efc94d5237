import { describe, expect, it } from "vitest";
import { renderMessages } from "../../src/tracing/render-messages.js";

/** A chat.completions response as the OpenAI API returns it. */
function completion(message: Record<string, unknown>) {
  return {
    id: "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
    object: "chat.completion",
    created: 1741569952,
    model: "gpt-4o-mini-2024-07-18",
    choices: [{ index: 0, message: { refusal: null, annotations: [], ...message }, logprobs: null, finish_reason: "stop" }],
    usage: { prompt_tokens: 82, completion_tokens: 17, total_tokens: 99 },
    system_fingerprint: "fp_06737a9306",
  };
}

describe("renderMessages: OpenAI chat completions", () => {
  it("renders a tool-call round trip", () => {
    const inputs = {
      model: "gpt-4o-mini",
      temperature: 0,
      messages: [
        { role: "developer", content: "You are a weather bot." },
        { role: "user", content: "What's the weather in Paris and Berlin?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_abc", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
            { id: "call_def", type: "function", function: { name: "get_weather", arguments: '{"city": "Berlin", "unit": "c"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_abc", content: "18°C and sunny" },
        { role: "tool", tool_call_id: "call_def", content: [{ type: "text", text: "12°C, rain" }] },
      ],
      tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }],
    };
    const rendered = renderMessages(inputs, completion({ role: "assistant", content: "Paris is sunny; Berlin is rainy." }));

    expect(rendered.format).toBe("openai");
    expect(rendered.warnings).toEqual([]);
    expect(rendered.input_messages).toEqual([
      { role: "system", content: [{ type: "text", text: "You are a weather bot." }] },
      { role: "user", content: [{ type: "text", text: "What's the weather in Paris and Berlin?" }] },
      {
        role: "assistant",
        content: [
          { type: "tool_call", id: "call_abc", name: "get_weather", args: { city: "Paris" } },
          { type: "tool_call", id: "call_def", name: "get_weather", args: { city: "Berlin", unit: "c" } },
        ],
      },
      { role: "tool", tool_call_id: "call_abc", content: [{ type: "text", text: "18°C and sunny" }] },
      { role: "tool", tool_call_id: "call_def", content: [{ type: "text", text: "12°C, rain" }] },
    ]);
    expect(rendered.output_messages).toEqual([
      { role: "assistant", content: [{ type: "text", text: "Paris is sunny; Berlin is rainy." }] },
    ]);
  });

  it("renders a tool call made in the output", () => {
    const rendered = renderMessages(
      { messages: [{ role: "user", content: "weather in Oslo?" }] },
      completion({
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }],
      }),
    );
    expect(rendered.output_messages).toEqual([
      { role: "assistant", content: [{ type: "tool_call", id: "call_1", name: "get_weather", args: { city: "Oslo" } }] },
    ]);
  });

  it("renders image_url parts given as a URL and as a base64 data URL", () => {
    const rendered = renderMessages(
      {
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "Compare these." },
              { type: "image_url", image_url: { url: "https://upload.wikimedia.org/cat.jpg", detail: "high" } },
              { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==" } },
              { type: "input_audio", input_audio: { data: "UklGRiQAAABXQVZF", format: "wav" } },
              { type: "file", file: { filename: "a.pdf", file_data: "data:application/pdf;base64,JVBERi0xLjQK" } },
              { type: "file", file: { file_id: "file-6F2ksmvXxt4VdoqmHRw6kL" } },
            ],
          },
        ],
      },
      null,
    );
    expect(rendered.format).toBe("openai");
    expect(rendered.warnings).toEqual([]);
    expect(rendered.input_messages[0].content).toEqual([
      { type: "text", text: "Compare these." },
      { type: "image", url: "https://upload.wikimedia.org/cat.jpg" },
      { type: "image", base64: "iVBORw0KGgoAAAANSUhEUg==", mime_type: "image/png" },
      { type: "audio", base64: "UklGRiQAAABXQVZF", mime_type: "audio/wav" },
      { type: "file", base64: "JVBERi0xLjQK", mime_type: "application/pdf" },
      { type: "file", id: "file-6F2ksmvXxt4VdoqmHRw6kL" },
    ]);
  });

  it("renders legacy function_call and function-role messages", () => {
    const rendered = renderMessages(
      {
        messages: [
          { role: "system", content: "Use functions." },
          { role: "user", content: "What time is it in Tokyo?" },
          { role: "assistant", content: null, function_call: { name: "get_time", arguments: '{"tz":"Asia/Tokyo"}' } },
          { role: "function", name: "get_time", content: "09:41" },
        ],
      },
      completion({ role: "assistant", content: "It is 09:41 in Tokyo." }),
    );
    expect(rendered.warnings).toEqual([]);
    expect(rendered.input_messages.slice(2)).toEqual([
      { role: "assistant", content: [{ type: "tool_call", name: "get_time", args: { tz: "Asia/Tokyo" } }] },
      { role: "tool", name: "get_time", content: [{ type: "text", text: "09:41" }] },
    ]);
  });

  it("warns about invalid JSON arguments and keeps the raw string", () => {
    const rendered = renderMessages(
      {
        messages: [
          { role: "user", content: "go" },
          {
            role: "assistant",
            content: "Calling.",
            tool_calls: [{ id: "call_x", type: "function", function: { name: "search", arguments: '{"q": "paris' } }],
          },
          { role: "tool", tool_call_id: "call_x", content: "[]" },
        ],
      },
      null,
    );
    expect(rendered.input_messages[1].content).toEqual([
      { type: "text", text: "Calling." },
      { type: "tool_call", id: "call_x", name: "search", args: { _raw: '{"q": "paris' } },
    ]);
    expect(rendered.warnings).toEqual(["input message 1: tool call arguments are not valid JSON (kept under _raw)"]);
  });

  it("renders a refusal and warns about an unknown part type", () => {
    const rendered = renderMessages(
      { messages: [{ role: "user", content: [{ type: "text", text: "x" }, { type: "input_hologram", data: 1 }] }] },
      completion({ role: "assistant", content: null, refusal: "I can't help with that." }),
    );
    expect(rendered.input_messages[0].content[1]).toEqual({ type: "unknown", original: { type: "input_hologram", data: 1 } });
    expect(rendered.output_messages[0].content).toEqual([
      { type: "text", text: "I can't help with that.", extras: { refusal: true } },
    ]);
    expect(rendered.warnings).toEqual(['input message 0: unknown content block type "input_hologram" (kept verbatim)']);
  });
});
