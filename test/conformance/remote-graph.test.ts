import path from "node:path";
import { randomUUID } from "node:crypto";
import { Annotation, Command, END, MemorySaver, Send, START, StateGraph } from "@langchain/langgraph";
import { RemoteGraph } from "@langchain/langgraph/remote";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

/**
 * LangGraph's RemoteGraph (its own SDK client inside) against a running Hangar: invoke, stream,
 * an interrupt resumed with `new Command({resume})` (sent as Command.toJSON(), lg_name and all),
 * a Send through goto, and a RemoteGraph as a node of a local graph.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ configPath: path.resolve("test/fixtures/commands.langgraph.json") });
});
afterAll(async () => {
  await server?.close();
});

type Message = { role: string; content: string };
const remote = (graphId: string) => new RemoteGraph({ graphId, url: server.url });
const onThread = (threadId: string) => ({ configurable: { thread_id: threadId } });

describe("RemoteGraph against Hangar", () => {
  it("invokes a graph and streams its values", async () => {
    const echo = remote("echo");
    const input = { messages: [{ role: "user", content: "hi" }] };
    const values = (await echo.invoke(input)) as { messages: Message[] };
    expect(values.messages.map((message) => message.content)).toEqual(["hi", "echo: hi"]);

    const chunks = [];
    for await (const chunk of await echo.stream(input, { streamMode: "values" })) chunks.push(chunk);
    expect(chunks.at(-1)).toEqual(values);
    const updates = [];
    for await (const chunk of await echo.stream(input, { streamMode: "updates" })) updates.push(chunk);
    expect(updates).toEqual([{ echo: { messages: [{ role: "assistant", content: "echo: hi" }] } }]);
  });

  it("stops at an interrupt, resumes with new Command({resume}) and goes on with a Send", async () => {
    const graph = remote("commands");
    const threadId = randomUUID();
    // RemoteGraph reports the interrupt as LangGraph's GraphInterrupt.
    await expect(graph.invoke({ log: ["start"] }, onThread(threadId))).rejects.toMatchObject({ name: "GraphInterrupt" });
    const state = await graph.getState(onThread(threadId));
    expect(state.next).toEqual(["ask"]);
    expect(state.tasks[0]?.interrupts[0]).toMatchObject({ value: { question: "continue?" } });

    const resumed = (await graph.invoke(new Command({ resume: "go" }), onThread(threadId))) as { log: string[] };
    expect(resumed.log).toEqual(["start", 'ask:"go"']);

    const sent = (await graph.invoke(
      new Command({ update: { log: ["u"] }, goto: [new Send("note", { log: ["sent"] })] }),
      onThread(threadId),
    )) as { log: string[] };
    expect(sent.log).toEqual(["start", 'ask:"go"', "u", "note:sent"]);
  });

  it("has ended the run by the time a stream shows its interrupt, so a client may resume at once", async () => {
    // RemoteGraph stops reading at the `__interrupt__` update and sends the resume straight away
    // (multitask reject): the run it interrupted must no longer be active by then.
    const thread = await server.client.threads.create();
    for await (const part of server.client.runs.stream(thread.thread_id, "commands", { input: { log: ["start"] }, streamMode: "updates" })) {
      if (part.event === "updates" && (part.data as Record<string, unknown>).__interrupt__ !== undefined) {
        const [run] = await server.client.runs.list(thread.thread_id);
        expect(run?.status).not.toMatch(/^(pending|running)$/);
        break;
      }
    }
    const resumed = await server.client.runs.wait(thread.thread_id, "commands", { command: { resume: "go" } });
    expect((resumed as { log: string[] }).log).toEqual(["start", 'ask:"go"']);
  });

  it("runs as a node of a local graph, its events streamed as the subgraph's", async () => {
    // No reducer: the remote graph's values replace the local ones (echo answers all its messages).
    const LocalState = Annotation.Root({ messages: Annotation<Message[]> });
    const local = new StateGraph(LocalState)
      .addNode("remote", remote("echo"))
      .addNode("after", (state) => ({ messages: [...state.messages, { role: "assistant", content: "local done" }] }))
      .addEdge(START, "remote")
      .addEdge("remote", "after")
      .addEdge("after", END)
      .compile({ checkpointer: new MemorySaver() });
    const threadId = randomUUID();
    const input = { messages: [{ role: "user", content: "hi" }] };

    const values = await local.invoke(input, onThread(threadId));
    expect(values.messages.map((message) => message.content)).toEqual(["hi", "echo: hi", "local done"]);
    // The remote thread is Hangar's, under the local thread's id.
    const remoteState = await server.client.threads.getState<{ messages: Message[] }>(threadId);
    expect((remoteState.values as { messages: Message[] }).messages.map((message) => message.content)).toEqual(["hi", "echo: hi"]);

    const namespaces: string[][] = [];
    for await (const [namespace] of await local.stream(input, { ...onThread(randomUUID()), streamMode: "updates", subgraphs: true })) {
      namespaces.push(namespace);
    }
    expect(namespaces.some((namespace) => namespace[0]?.startsWith("remote:"))).toBe(true);
    expect(namespaces).toContainEqual([]);
  });
});
