import { describe, expect, it } from "vitest";
import { runMetadataEvent, type RunStreamEvent } from "../../src/domain/run-event.js";
import { sseResponse } from "../../src/streaming/sse-response.js";

/** Events that come only when pushed (kept until asked for), recording whether the stream stopped them. */
function heldEvents() {
  const waiting: Array<(event: IteratorResult<RunStreamEvent>) => void> = [];
  const pushed: Array<IteratorResult<RunStreamEvent>> = [];
  const state = { returned: false };
  const deliver = (result: IteratorResult<RunStreamEvent>) => {
    const resolve = waiting.shift();
    if (resolve) resolve(result);
    else pushed.push(result);
  };
  const iterator: AsyncIterator<RunStreamEvent> = {
    next: () => {
      const result = pushed.shift();
      return result ? Promise.resolve(result) : new Promise((resolve) => waiting.push(resolve));
    },
    return: async () => {
      state.returned = true;
      for (const resolve of waiting.splice(0)) resolve({ done: true, value: undefined });
      return { done: true, value: undefined };
    },
  };
  return {
    events: { [Symbol.asyncIterator]: () => iterator },
    push: (event: RunStreamEvent) => deliver({ done: false, value: event }),
    end: () => deliver({ done: true, value: undefined }),
    state,
  };
}

const run = { runId: "00000000-0000-4000-8000-000000000001", threadId: "00000000-0000-4000-8000-000000000002" };
const decode = (chunk: Uint8Array | undefined) => new TextDecoder().decode(chunk);

describe("sseResponse", () => {
  it("has the opening event in its body before the events yield anything, then the events, then the end", async () => {
    const held = heldEvents();
    const response = sseResponse(held.events, { abort: new AbortController(), opening: runMetadataEvent(run, 1, 1) });
    const reader = response.body!.getReader();
    // Nothing was pushed: the first chunk can only be the opening event.
    expect(decode((await reader.read()).value)).toBe(`event: metadata\ndata: {"run_id":"${run.runId}","attempt":1}\nid: 0\n\n`);
    const next = reader.read();
    held.push({ ...run, seq: 2, event: "values", data: "{}" });
    expect(decode((await next).value)).toBe("event: values\ndata: {}\nid: 1\n\n");
    const last = reader.read();
    held.end();
    expect((await last).done).toBe(true);
  });

  it("is marked chunked, so the HTTP adapter sends its headers at once instead of reading ahead to size it", () => {
    const held = heldEvents();
    const response = sseResponse(held.events, { abort: new AbortController(), opening: runMetadataEvent(run, 1, 1) });
    expect(response.headers.get("transfer-encoding")).toBe("chunked");
    expect(response.headers.get("content-type")).toBe("text/event-stream");
  });

  it("stops the events when the client leaves after the opening event, and tells onDisconnect", async () => {
    const held = heldEvents();
    let disconnected = 0;
    const abort = new AbortController();
    const response = sseResponse(held.events, { abort, opening: runMetadataEvent(run, 1, 1), onDisconnect: () => disconnected++ });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(held.state.returned).toBe(true);
    expect(abort.signal.aborted).toBe(true);
    expect(disconnected).toBe(1);
  });
});
