import { expect } from "vitest";
import WebSocket from "ws";
import type { TestServer } from "../helpers/test-server.js";

/** Protocol v2 on the wire for tests: raw WebSocket frames, SSE event streams and commands. */

export interface Frame {
  type: string;
  id?: number | null;
  method?: string;
  error?: string;
  message?: string;
  result?: Record<string, unknown>;
  params?: { namespace: string[]; data: Record<string, unknown> };
  seq?: number;
  event_id?: string;
}

/** Wire helpers against a test server (a getter: the server starts in beforeAll). */
export function protocolWire(server: () => TestServer) {
  /** A raw protocol socket: frames in arrival order, awaited by predicate; `headers` for the upgrade. */
  async function openSocket(threadId: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(`${server().url.replace("http", "ws")}/threads/${threadId}/stream/events`, { headers });
  const frames: Frame[] = [];
  const waiters: Array<() => void> = [];
  socket.on("message", (data) => {
    frames.push(JSON.parse(data.toString()) as Frame);
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  const next = async (predicate: (frame: Frame) => boolean): Promise<Frame> => {
    for (;;) {
      const index = frames.findIndex(predicate);
      if (index >= 0) return frames.splice(index, 1)[0]!;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  let nextId = 1;
  const command = async (method: string, params: unknown) => {
    const id = nextId++;
    socket.send(JSON.stringify({ id, method, params }));
    return next((frame) => frame.type !== "event" && frame.id === id);
  };
  return { socket, next, command, closed, frames };
}

async function postCommand(threadId: string, method: string, params: unknown, id = 1, headers: Record<string, string> = {}) {
  const response = await server().request(`/threads/${threadId}/commands`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ id, method, params }),
  });
  return { status: response.status, body: (await response.json()) as Frame };
}

/** Every SSE frame of a protocol event stream until `until` matches one (then the stream is closed). */
async function readEventStream(threadId: string, filter: unknown, until: (frame: Frame) => boolean, headers: Record<string, string> = {}): Promise<Frame[]> {
  const response = await server().request(`/threads/${threadId}/stream/events`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
    body: JSON.stringify(filter),
  });
  expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
  const frames: Frame[] = [];
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of response.body!) {
    buffered += decoder.decode(chunk as Uint8Array, { stream: true });
    let end;
    while ((end = buffered.indexOf("\n\n")) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const data = block.split("\n").find((line) => line.startsWith("data: "));
      if (!data) continue;
      const frame = JSON.parse(data.slice(6)) as Frame;
      frames.push(frame);
      // Leaving the loop cancels the body: the server sees the stream closed.
      if (until(frame)) return frames;
    }
  }
  return frames;
}

  return { openSocket, postCommand, readEventStream };
}

export const rootFinished = (frame: Frame) =>
  frame.method === "lifecycle" && frame.params!.namespace.length === 0 && ["completed", "failed", "interrupted"].includes(String(frame.params!.data.event));
